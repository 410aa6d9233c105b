import pg from 'pg';
import { checkConnection, connectionProblem } from './connection-checks.ts';
import { ledgerGrants } from './ledger-grants.ts';
import { appliedVersion, LATEST_MIGRATION, migrate } from './schema.ts';

/** What `migrateLedger` did: the migration the database was at, the one it is at now, and the grants a worker role needs. */
export interface LedgerMigrationResult {
  readonly from: number;
  readonly to: number;
  /** The schema the ledger's tables are in (the connection's current schema). */
  readonly schema: string;
  /** The exact GRANT statements for the worker role (`role`, `gw_worker` by default). */
  readonly grants: readonly string[];
}

/**
 * Applies the ledger's migrations (as a role that may create tables: the database's owner), safe while workers run
 * and from several processes at once, and returns the grants a worker role needs, which then runs without CREATE.
 */
export async function migrateLedger(connection: string | pg.Pool, options: { readonly role?: string } = {}): Promise<LedgerMigrationResult> {
  const pool = typeof connection === 'string' ? new pg.Pool({ connectionString: connection, max: 1 }) : connection;
  try {
    const client = await pool.connect();
    try {
      await checkConnection(client);
      const from = await appliedVersion(client);
      await migrate(client);
      const schema = (await client.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0]!.schema;
      return { from, to: LATEST_MIGRATION, schema, grants: ledgerGrants(options.role ?? 'gw_worker', schema) };
    } finally {
      client.release();
    }
  } catch (error) {
    throw connectionProblem(error) ?? error;
  } finally {
    if (typeof connection === 'string') await pool.end().catch(() => {});
  }
}
