import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, inject } from 'vitest';
import { PgLedger } from '../../src/postgres/pg-ledger.ts';

/** A fresh database in the test run's PostgreSQL cluster: its URL (through PgBouncer when the run asks), its direct URL, and a drop for afterwards. */
export async function freshDatabase(): Promise<{ url: string; direct: string; drop: () => Promise<void> }> {
  const admin = inject('postgres').url;
  if (!admin) throw new Error(`PostgreSQL did not start: ${inject('postgres').why}`);
  const name = `t_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const direct = admin.replace(/\/postgres$/, `/${name}`);
  const { pgBouncerPort } = inject('postgres');
  return {
    // The ledger's URL: through PgBouncer when the run asks for it (GW_TEST_LEDGER=pgbouncer), else direct.
    url: pgBouncerPort === null ? direct : direct.replace(/:\d+\//, `:${pgBouncerPort}/`),
    direct,
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * For one test file: a fresh database with a `PgLedger` open on it before the file's tests (handed to `opened`), closed
 * and dropped after them.
 */
export function ledgerForFile(opened: (ledger: PgLedger) => void): void {
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  let ledger: PgLedger | undefined;
  beforeAll(async () => {
    db = await freshDatabase();
    ledger = await PgLedger.open(db.url);
    opened(ledger);
  });
  afterAll(async () => {
    await ledger?.close();
    await db?.drop();
  });
}

/**
 * For one test file: a sandbox and a fresh database started before the file's tests (handed to `ready`, the database
 * as its URL, through PgBouncer when the run asks, and as its direct URL), dropped and stopped after them.
 */
export function sandboxAndDatabaseForFile(ready: (sandbox: Sandbox, ledgerUrl: string, directUrl: string) => void): void {
  let sandbox: Sandbox | undefined;
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox();
    db = await freshDatabase();
    ready(sandbox, db.url, db.direct);
  });
  afterAll(async () => {
    await db?.drop();
    await sandbox?.stop();
  });
}
