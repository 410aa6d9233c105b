// A real sandbox for a test file, and the orders a batch test feeds gw: card payments authorised on it, written as an
// orders file.
import { writeFileSync } from 'node:fs';
import { createClient, type ClientOptions, type GwClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox, type Sandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { authoriseOrders, ordersCsv, type AuthoriseOptions, type CaptureOrder } from '@gw/test-support';
import { createDatabase, startCluster, type Cluster } from '@gw/test-postgres';
import { afterAll, beforeAll } from 'vitest';

/** A client of `sandbox`'s default merchant, signing and verifying with its secret. */
export function sandboxClient(sandbox: Sandbox, options: Partial<ClientOptions> = {}): GwClient {
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  return createClient({
    baseUrl: sandbox.url,
    merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
    accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
    signer,
    verifier: signer,
    ...options,
  });
}

/** Authorises `count` orders on `sandbox` (through `client`, or a client of its default merchant), writes them as the orders file `file`, and returns them. */
export async function authorisedOrdersFile(
  sandbox: Sandbox,
  file: string,
  count: number,
  options: AuthoriseOptions & { client?: GwClient },
): Promise<CaptureOrder[]> {
  const orders = await authoriseOrders(options.client ?? sandboxClient(sandbox), count, options);
  writeFileSync(file, ordersCsv(orders));
  return orders;
}

/** Starts a sandbox before the file's tests and stops it after them; `use` receives it once started. */
export function sandboxForFile(use: (sandbox: Sandbox) => void): void {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox();
    use(sandbox);
  });
  afterAll(() => sandbox?.stop());
}

/** What a ledger test file runs against: a sandbox, a throwaway PostgreSQL cluster (halted and restarted at will), a database in it. */
export interface SandboxAndLedger {
  readonly sandbox: Sandbox;
  readonly cluster: Cluster;
  readonly ledger: string;
}

/** Starts a sandbox and a PostgreSQL cluster with database `name` before the file's tests, stops both after them; `use` receives them. */
export function sandboxAndLedgerForFile(name: string, use: (started: SandboxAndLedger) => void | Promise<void>): void {
  let started: SandboxAndLedger | undefined;
  beforeAll(async () => {
    const sandbox = await startSandbox();
    const cluster = await startCluster();
    started = { sandbox, cluster, ledger: await createDatabase(cluster.url, name) };
    await use(started);
  });
  afterAll(async () => {
    await started?.sandbox.stop();
    started?.cluster.stop();
  });
}
