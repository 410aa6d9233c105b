import type { PoolClient } from 'pg';

/**
 * The ledger's tables. A chunk's orders are one JSON text (`body`: PostgreSQL does not parse it; compressed with lz4
 * where the server has it, pglz otherwise, and kept out of line from 128 bytes on, so a lease's or a commit's update
 * copies a pointer, not the text; that cut the WAL per chunk of 50 from 27.6 KB to 12.3 KB), with the indexes of the
 * orders in it that lost their claim to another batch (`skip`, never sent); a committed chunk's outcomes are one row
 * of `gw_batch_result` (one JSON text, each outcome without its order, which its chunk's text holds, and the counts by
 * kind; compressed as `body` is). A database whose chunks already had `body` keeps that column's storage as it was
 * (uncompressed, out of line): the same semantics, more WAL. Orders refused at intake keep one `gw_batch_outcome` row
 * each, as do every outcome and chunk of a database made by an earlier version (its `orders` jsonb column still read).
 * Outcome and claim rows name their batch without a foreign key (a per-row check that cost a third of an intake): the
 * statements that write them write only for a batch that exists (intake checks it in the same statement; outcomes are
 * written only with a chunk of the batch held), and no batch is ever deleted. A database made by an earlier version
 * has those two foreign keys dropped on open. A claim's operation and key compare bytewise (COLLATE "C": the
 * database's collation would call strcoll for every comparison in the claims' unique index; only equality matters); a
 * database made by an earlier version keeps its claims' collation (same semantics, only slower; not rebuilt on open,
 * which would lock the table for every worker meanwhile). Created by the store itself, idempotently (every statement
 * `IF NOT EXISTS`, run under a transaction-scoped advisory lock so workers starting together do not race); documented
 * in the README.
 */
export const LEDGER_SCHEMA: string = `
CREATE TABLE IF NOT EXISTS gw_batch (
  id text PRIMARY KEY,
  operation text NOT NULL,
  chunk_limit integer NOT NULL,
  intake_next bigint NOT NULL DEFAULT 0,
  sealed boolean NOT NULL DEFAULT false,
  total bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  creator text
);
ALTER TABLE gw_batch ADD COLUMN IF NOT EXISTS creator text;
CREATE SEQUENCE IF NOT EXISTS gw_batch_chunk_seq;
CREATE TABLE IF NOT EXISTS gw_batch_chunk (
  batch_id text NOT NULL REFERENCES gw_batch (id),
  chunk bigint NOT NULL,
  orders jsonb NOT NULL,
  state text NOT NULL DEFAULT 'ready' CHECK (state IN ('ready', 'leased', 'done')),
  leased_before boolean NOT NULL DEFAULT false,
  sent boolean NOT NULL DEFAULT false,
  fence bigint NOT NULL DEFAULT 0,
  holder text,
  lease_until timestamptz,
  quiet_at timestamptz,
  PRIMARY KEY (batch_id, chunk)
);
-- quiet_at: past it, no request of any earlier holder of the chunk can still be in flight (see statements.ts QUIET_WAIT).
ALTER TABLE gw_batch_chunk ADD COLUMN IF NOT EXISTS quiet_at timestamptz;
CREATE INDEX IF NOT EXISTS gw_batch_chunk_open ON gw_batch_chunk (batch_id, chunk) WHERE state <> 'done';
CREATE TABLE IF NOT EXISTS gw_batch_outcome (
  batch_id text NOT NULL,
  idx bigint NOT NULL,
  kind text NOT NULL,
  chunk bigint,
  outcome jsonb NOT NULL,
  PRIMARY KEY (batch_id, idx)
);
CREATE TABLE IF NOT EXISTS gw_batch_result (
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
CREATE TABLE IF NOT EXISTS gw_order_claim (
  operation text COLLATE "C" NOT NULL,
  order_key text COLLATE "C" NOT NULL,
  batch_id text NOT NULL,
  idx bigint NOT NULL,
  PRIMARY KEY (operation, order_key)
);
DO $$ BEGIN
  -- Only when there is one to drop: ALTER TABLE locks the table against every worker's statements meanwhile.
  IF EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'gw_batch_outcome_batch_id_fkey') THEN
    ALTER TABLE gw_batch_outcome DROP CONSTRAINT gw_batch_outcome_batch_id_fkey;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'gw_order_claim_batch_id_fkey') THEN
    ALTER TABLE gw_order_claim DROP CONSTRAINT gw_order_claim_batch_id_fkey;
  END IF;
  -- A chunk's orders as one text (an earlier version's chunks keep their jsonb orders, still read).
  IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'gw_batch_chunk' AND column_name = 'body' AND table_schema = current_schema()) THEN
    ALTER TABLE gw_batch_chunk ADD COLUMN body text, ADD COLUMN skip bigint[], ALTER COLUMN orders DROP NOT NULL, SET (toast_tuple_target = 128);
    BEGIN
      ALTER TABLE gw_batch_chunk ALTER COLUMN body SET COMPRESSION lz4;
      ALTER TABLE gw_batch_result ALTER COLUMN outcomes SET COMPRESSION lz4;
    EXCEPTION WHEN feature_not_supported THEN NULL;
    END;
  END IF;
END $$;
`;

/** Creates the ledger's tables where missing; safe to run from several processes at once. */
export async function migrate(client: PoolClient): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('gw_batch_ledger_schema'))");
    await client.query(LEDGER_SCHEMA);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
