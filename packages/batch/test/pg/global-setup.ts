import type { TestProject } from 'vitest/node';
import { pgBouncerInstalled, startCluster, startPgBouncer, type PgBouncer } from '@gw/test-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * A throwaway PostgreSQL cluster's admin URL (database `postgres`), or null with why it could not start; and the
     * port of a PgBouncer in transaction mode in front of it (null when not asked for: GW_TEST_LEDGER=pgbouncer).
     */
    postgres: { url: string | null; why: string | null; pgBouncerPort: number | null };
  }
}

/**
 * Starts one throwaway PostgreSQL cluster for the test run and stops and removes it afterwards. Each test makes its
 * own database in it (test/pg/database.ts). With GW_TEST_LEDGER=pgbouncer the ledgers are reached through PgBouncer in
 * transaction mode (a pool of 4 server connections per database, fewer than the tests' clients), as teams' poolers do.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startCluster();
  let pgBouncer: PgBouncer | null = null;
  if (process.env.GW_TEST_LEDGER === 'pgbouncer') {
    if (!pgBouncerInstalled()) throw new Error('GW_TEST_LEDGER=pgbouncer: PgBouncer is not installed (apt-get install -y pgbouncer)');
    pgBouncer = await startPgBouncer(cluster, { poolMode: 'transaction', poolSize: 4 });
  }
  project.provide('postgres', { url: cluster.url, why: null, pgBouncerPort: pgBouncer?.port ?? null });
  return () => {
    pgBouncer?.stop();
    cluster.stop();
  };
}
