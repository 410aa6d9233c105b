import type { PoolClient } from 'pg';
import { LedgerConnectionError, LedgerNotMigratedError, UnmigratedLedgerError } from '../errors.ts';
import { LEDGER_SEQUENCES, LEDGER_TABLES, MIGRATIONS_TABLE } from './ledger-grants.ts';

/** The command that migrates a ledger, as a LedgerNotMigratedError names it. */
export const MIGRATE_COMMAND = 'gw ledger migrate --ledger "$GW_LEDGER_URL"';

/** PostgreSQL's `insufficient_privilege`. */
const INSUFFICIENT_PRIVILEGE = '42501';

/** One step of the ledger's schema: its number (applied in order, each once per database), a name, and its SQL. */
export interface LedgerMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The ledger's schema as numbered migrations, recorded in `gw_ledger_migration` (as graphile-worker's migrate does).
 * A chunk's orders are one JSON text (`body`: PostgreSQL does not parse it; compressed with lz4 where the server has it,
 * pglz otherwise, and kept out of line from 128 bytes on, so a lease's or a commit's update copies a pointer, not the
 * text), with the indexes of the orders in it that lost their claim to another batch (`skip`, never sent); a committed
 * chunk's outcomes are one row of `gw_batch_result` (one JSON text, each outcome without its order, which its chunk's
 * text holds); orders refused at intake keep one `gw_batch_outcome` row each. `quiet_at`: past it, no request of any
 * holder of the chunk can still be in flight (statements.ts, QUIET_WAIT). Outcome, result and claim rows name their
 * batch without a foreign key (measured, they doubled PostgreSQL's CPU per chunk: the README's ledger section):
 * the statements write them only for a batch that exists, and no batch is deleted. A claim's operation and key compare
 * bytewise (COLLATE "C": only equality matters, and the database's collation would call strcoll per comparison).
 */
export const LEDGER_MIGRATIONS: readonly LedgerMigration[] = [
  {
    version: 1,
    name: 'ledger',
    sql: `
CREATE TABLE gw_batch (
  id text PRIMARY KEY,
  operation text NOT NULL,
  chunk_limit integer NOT NULL,
  intake_next bigint NOT NULL DEFAULT 0,
  sealed boolean NOT NULL DEFAULT false,
  total bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  creator text
);
CREATE SEQUENCE gw_batch_chunk_seq;
CREATE TABLE gw_batch_chunk (
  batch_id text NOT NULL REFERENCES gw_batch (id),
  chunk bigint NOT NULL,
  body text NOT NULL,
  skip bigint[],
  state text NOT NULL DEFAULT 'ready' CHECK (state IN ('ready', 'leased', 'done')),
  leased_before boolean NOT NULL DEFAULT false,
  sent boolean NOT NULL DEFAULT false,
  fence bigint NOT NULL DEFAULT 0,
  holder text,
  lease_until timestamptz,
  quiet_at timestamptz,
  PRIMARY KEY (batch_id, chunk)
) WITH (toast_tuple_target = 128);
CREATE INDEX gw_batch_chunk_open ON gw_batch_chunk (batch_id, chunk) WHERE state <> 'done';
CREATE TABLE gw_batch_outcome (
  batch_id text NOT NULL,
  idx bigint NOT NULL,
  kind text NOT NULL,
  outcome jsonb NOT NULL,
  PRIMARY KEY (batch_id, idx)
);
CREATE TABLE gw_batch_result (
  batch_id text NOT NULL,
  chunk bigint NOT NULL,
  first_idx bigint NOT NULL,
  succeeded integer NOT NULL,
  failed integer NOT NULL,
  rejected integer NOT NULL,
  unknown integer NOT NULL,
  outcomes text NOT NULL,
  PRIMARY KEY (batch_id, chunk)
);
CREATE TABLE gw_order_claim (
  operation text COLLATE "C" NOT NULL,
  order_key text COLLATE "C" NOT NULL,
  batch_id text NOT NULL,
  idx bigint NOT NULL,
  PRIMARY KEY (operation, order_key)
);
DO $$ BEGIN
  ALTER TABLE gw_batch_chunk ALTER COLUMN body SET COMPRESSION lz4;
  ALTER TABLE gw_batch_result ALTER COLUMN outcomes SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN NULL;
END $$;
`,
  },
  {
    version: 2,
    name: 'input identity',
    // The input a batch took in, fixed from its start: the ranges read with each intake statement and their digests,
    // the number of orders it was started with, and the whole input's digest once sealed. A resume checks its input
    // against them before it sends anything. Batches made before this migration have none: nothing to check.
    sql: `
ALTER TABLE gw_batch ADD COLUMN declared_total bigint, ADD COLUMN input_digest text;
CREATE TABLE gw_batch_input (
  batch_id text NOT NULL,
  upto bigint NOT NULL,
  from_idx bigint NOT NULL,
  digest text NOT NULL,
  PRIMARY KEY (batch_id, upto)
);
`,
  },
  {
    version: 3,
    name: 'pacing',
    // The batch's pace, kept for every worker together: its limits (requests per second, requests in flight), the
    // chunks leased now (the in-flight permits, kept while a limit is set), the next send's slot, the rate learnt
    // from throttles and when, the pause the gateway asked for, the burst of throttles on (from when, until when), and
    // the throttles met; each worker's last report of the requests the gateway let through (the pace after a burst).
    sql: `
ALTER TABLE gw_batch ADD COLUMN max_rate double precision, ADD COLUMN max_in_flight integer, ADD COLUMN leased_now integer NOT NULL DEFAULT 0,
  ADD COLUMN next_send_at timestamptz, ADD COLUMN pace double precision, ADD COLUMN pace_at timestamptz, ADD COLUMN burst_at timestamptz,
  ADD COLUMN lowered_until timestamptz, ADD COLUMN paused_until timestamptz, ADD COLUMN throttled bigint NOT NULL DEFAULT 0;
CREATE TABLE gw_batch_pace_report (
  batch_id text NOT NULL,
  holder text NOT NULL,
  let_through integer NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (batch_id, holder)
);
`,
  },
  {
    version: 4,
    name: 'intake lease',
    // One process at a time takes a batch's input in, by a lease on its row (its holder and until when, renewed while
    // it takes input in): no session state, so a transaction pooler (PgBouncer) may hand each statement to any server
    // connection. A holder that dies has its lease expire; the intake mark (intake_next) keeps two from writing at once.
    sql: `
ALTER TABLE gw_batch ADD COLUMN intake_holder text, ADD COLUMN intake_until timestamptz;
`,
  },
  {
    version: 5,
    name: 'step token',
    // A lease as the step that took it handed it out: that step's token (each worker step has one, kept when it is
    // tried again after a lost connection), and what it answered (taken over, the earlier holders' quiet time, the
    // send slot). A step tried again once its first try had committed answers the first try's leases again instead of
    // leasing anew: no chunk stays leased to a holder that does not know it holds it. Found by its token (an index of
    // the leased chunks only), not by scanning the batch's open chunks at every step.
    sql: `
ALTER TABLE gw_batch_chunk ADD COLUMN lease_step text, ADD COLUMN lease_taken_over boolean, ADD COLUMN lease_quiet_before timestamptz,
  ADD COLUMN lease_send_at timestamptz, ADD COLUMN lease_rate_slot boolean;
CREATE INDEX gw_batch_chunk_lease_step ON gw_batch_chunk (lease_step) WHERE state = 'leased';
`,
  },
];

/** The newest migration's number: a database at it needs nothing. */
export const LATEST_MIGRATION = Math.max(...LEDGER_MIGRATIONS.map((m) => m.version));

/** The newest migration applied, 0 when the migrations table does not exist yet. */
export async function appliedVersion(client: PoolClient): Promise<number> {
  // Two statements: one naming a table that does not exist fails when it is parsed, whatever a CASE around it says.
  const exists = (await client.query<{ exists: boolean }>(`SELECT to_regclass('${MIGRATIONS_TABLE}') IS NOT NULL AS exists`)).rows[0]?.exists;
  if (!exists) return 0;
  const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${MIGRATIONS_TABLE}`);
  return Number(rows[0]?.version ?? 0);
}

/**
 * Brings the ledger's schema to the newest migration; safe from several processes at once. A database already there
 * costs one read and takes no lock (an ALTER or CREATE would lock tables against every running worker); otherwise the
 * missing migrations run in one transaction under an advisory lock, each recorded in `gw_ledger_migration`.
 */
export async function migrate(client: PoolClient): Promise<void> {
  if ((await appliedVersion(client)) >= LATEST_MIGRATION) return;
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('gw_batch_ledger_schema'))");
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const applied = await appliedVersion(client);
    if (applied === 0 && (await client.query("SELECT to_regclass('gw_batch') IS NOT NULL AS old")).rows[0]?.old) throw new UnmigratedLedgerError();
    for (const migration of LEDGER_MIGRATIONS) {
      if (migration.version <= applied) continue;
      await client.query(migration.sql);
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * Brings the ledger to the newest migration when this role may (as `migrate`), or says what to run: a role that may
 * not create tables gets LedgerNotMigratedError naming the owner's command. Then checks this role may read and write
 * every ledger table (LedgerConnectionError naming the grants missing): a role short of one fails here, not mid-batch.
 */
export async function ensureMigrated(client: PoolClient): Promise<void> {
  const applied = await appliedVersion(client).catch((error: unknown) => {
    throw (error as { code?: string }).code === INSUFFICIENT_PRIVILEGE ? missingGrants([MIGRATIONS_TABLE], error) : error;
  });
  if (applied < LATEST_MIGRATION) {
    try {
      await migrate(client);
    } catch (error) {
      if ((error as { code?: string }).code !== INSUFFICIENT_PRIVILEGE) throw error;
      throw new LedgerNotMigratedError({ applied, latest: LATEST_MIGRATION, command: MIGRATE_COMMAND }, { cause: error });
    }
  }
  const { rows } = await client.query<{ missing: string }>(
    `SELECT t || ' (' || p || ')' AS missing FROM unnest($1::text[]) t, unnest(ARRAY['SELECT', 'INSERT', 'UPDATE']) p WHERE NOT has_table_privilege(t, p)
     UNION ALL SELECT q || ' (USAGE)' FROM unnest($2::text[]) q WHERE NOT has_sequence_privilege(q, 'USAGE')`,
    [LEDGER_TABLES, LEDGER_SEQUENCES],
  );
  if (rows.length > 0) throw missingGrants(rows.map((r) => r.missing));
}

function missingGrants(missing: readonly string[], cause?: unknown): LedgerConnectionError {
  return new LedgerConnectionError(
    { setting: "this role's grants (`gw ledger migrate --role NAME` prints those a worker needs)", problem: `this role may not use ${missing.join(', ')}` },
    { cause },
  );
}
