// A ledger on a PostgreSQL that takes TLS only (its certificate signed by a CA the test made). `sslmode=verify-full`
// with that CA keeps a batch, over TLS; a wrong CA, or no TLS, is refused at start with a LedgerConnectionError naming
// the setting, at once (not ridden out as an outage), with nothing sent; the CA's path is in no message.
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { createDatabase, startCluster, type Cluster } from '@gw/test-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerConnectionError, ledgerUrlHoldsSecrets, maskedLedgerUrl, runBatch } from '../src/index.ts';
import { PgLedger } from '../src/postgres/pg-ledger.ts';
import { authorisedOrders, clientFor } from './harness.ts';

let sandbox: Sandbox;
let cluster: Cluster;
let database: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  cluster = await startCluster({ tls: true });
  database = await createDatabase(cluster.url, 'tls_ledger');
});
afterAll(async () => {
  await sandbox?.stop();
  cluster?.stop();
});

/** The ledger's URL with these TLS parameters. */
const ledgerUrl = (params: string) => `${database}?${params}`;
const captures = () => sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;

describe('a ledger on a PostgreSQL that takes TLS only', () => {
  it('sslmode=verify-full with the CA that signed its certificate: the batch is kept over TLS, each order captured once', async () => {
    const url = ledgerUrl(`sslmode=verify-full&sslrootcert=${cluster.tls!.caFile}`);
    const orders = await authorisedOrders(sandbox, 150, '5.00');
    const result = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders, ledger: url, batch: 'over-tls', reconcile: sandboxReconciler });
    expect(result.counts).toEqual({ succeeded: 150, failed: 0, rejected: 0, unknown: 0 });
    const ledger = await PgLedger.open(url);
    try {
      const { rows } = await ledger.pool.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
      expect(rows).toEqual([{ ssl: true }]);
    } finally {
      await ledger.close();
    }
  }, 30_000);

  it('a CA that did not sign it: refused at once naming sslrootcert, nothing sent, the CA file named nowhere', async () => {
    const wrongCa = cluster.tls!.wrongCaFile;
    const orders = await authorisedOrders(sandbox, 50, '5.00');
    const before = captures();
    const started = performance.now();
    const error = await runBatch({
      client: clientFor(sandbox),
      operation: 'capture',
      orders,
      ledger: ledgerUrl(`sslmode=verify-full&sslrootcert=${wrongCa}`),
      batch: 'wrong-ca',
      reconcile: sandboxReconciler,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerConnectionError);
    const refused = error as LedgerConnectionError;
    expect(refused.code).toBe('GW_CONFIG');
    expect(refused.details.setting).toContain('sslrootcert');
    expect(refused.message).toMatch(/TLS certificate was refused \(\w+\)/);
    // Not taken for an outage: refused at once, not after ledgerOutageMs (30 s).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(captures()).toBe(before);
    for (const text of [refused.message, JSON.stringify(refused), JSON.stringify(refused.toJSON())]) expect(text).not.toContain(wrongCa);
  }, 30_000);

  it('no TLS (sslmode=disable) where the server takes TLS only: refused naming sslmode, nothing sent', async () => {
    const orders = await authorisedOrders(sandbox, 50, '5.00');
    const before = captures();
    const run = runBatch({
      client: clientFor(sandbox),
      operation: 'capture',
      orders,
      ledger: ledgerUrl('sslmode=disable'),
      batch: 'no-tls',
      reconcile: sandboxReconciler,
    });
    await expect(run).rejects.toMatchObject({ name: 'LedgerConnectionError', details: { setting: expect.stringContaining('sslmode') } });
    expect(captures()).toBe(before);
  }, 30_000);

  it('a ledger URL as printed hides its password and the paths of its certificate and key files', () => {
    const url =
      'postgres://gw:s3cret@db.internal:5432/payments?sslmode=verify-full&sslrootcert=/etc/gw/ca.pem&sslcert=/etc/gw/client.pem&sslkey=/etc/gw/client.key&application_name=gw';
    expect(maskedLedgerUrl(url)).toBe(
      'postgres://gw:***@db.internal:5432/payments?sslmode=verify-full&sslrootcert=***&sslcert=***&sslkey=***&application_name=gw',
    );
    // What it masks is what makes a URL secret (the CLI then prints "$GW_LEDGER_URL" in its place).
    expect(ledgerUrlHoldsSecrets(url)).toBe(true);
    expect(ledgerUrlHoldsSecrets('postgres://gw@db.internal/payments?sslmode=verify-full&sslrootcert=/etc/gw/ca.pem')).toBe(true);
    expect(ledgerUrlHoldsSecrets('postgres://gw@db.internal/payments?sslmode=verify-full')).toBe(false);
  });
});
