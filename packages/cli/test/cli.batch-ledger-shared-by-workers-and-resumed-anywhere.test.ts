import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw as run } from './io.ts';
import { authorisedOrdersFile, sandboxAndLedgerForFile } from './sandbox-harness.ts';

let sandbox: Sandbox;
let ledger: string;
sandboxAndLedgerForFile('cli_ledger', (started) => {
  ({ sandbox, ledger } = started);
});

/** Runs gw in `cwd`; with `interrupt`, Ctrl-C as soon as the batch has started in the ledger (its id is printed then). */
const gw = (args: string[], cwd: string, interrupt = false) =>
  run(args, { cwd, ...(interrupt ? { interruptWhen: (out: string) => out.includes(' in postgres://') } : {}) });

/** Authorises `count` orders, writes them as `dir/name`, and returns their transaction ids. */
async function ordersFile(dir: string, name: string, count: number): Promise<string[]> {
  return (await authorisedOrdersFile(sandbox, join(dir, name), count, { prefix: 'LED', amount: '3.00' })).map((o) => o.transaction_id);
}

describe('gw batch --ledger (PostgreSQL)', () => {
  it('runs a batch, lets a worker join it, and refuses to capture its orders again in another batch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-ledger-'));
    const ids = await ordersFile(dir, 'orders.csv', 120);
    const flags = ['--base-url', sandbox.url, '--sandbox-defaults', '--reconcile', 'sandbox', '--ledger', ledger];
    const first = await gw(['batch', 'capture', 'orders.csv', '--batch', 'nightly-1', ...flags], dir);
    expect(first.err).toBe('');
    expect(first.status).toBe(EXIT_CODES.ok);
    expect(first.out).toContain('gw batch worker --ledger <url> --batch nightly-1');
    expect(readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8').match(/succeeded/g)).toHaveLength(120);

    const worker = await gw(['batch', 'worker', '--batch', 'nightly-1', ...flags], dir);
    expect(worker.status).toBe(EXIT_CODES.ok);
    expect(worker.out).toMatch(/succeeded\D+120/);

    const requests = sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;
    const replica = await gw(['batch', 'capture', 'orders.csv', '--batch', 'nightly-replica', '--results', 'replica.csv', ...flags], dir);
    expect(replica.status).toBe(EXIT_CODES.batchIncomplete);
    expect(sandbox.state.requests.filter((r) => r.path === '/v1/capture').length).toBe(requests);
    const rejected = readFileSync(join(dir, 'replica.csv'), 'utf8');
    expect(rejected.match(/already in batch nightly-1/g)).toHaveLength(120);
    for (const id of ids) expect(sandbox.state.appliedCounts('capture').get(id)).toBe(1);
  });

  it('a batch stopped by Ctrl-C is finished by --resume from another directory (machine), each order captured once', async () => {
    const here = mkdtempSync(join(tmpdir(), 'gw-cli-ledger-a-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'gw-cli-ledger-b-'));
    const ids = await ordersFile(here, 'orders.csv', 300);
    writeFileSync(join(elsewhere, 'orders.csv'), readFileSync(join(here, 'orders.csv')));
    const flags = ['--base-url', sandbox.url, '--sandbox-defaults', '--reconcile', 'sandbox', '--ledger', ledger, '--batch', 'stopped-1'];
    const stopped = await gw(['batch', 'capture', 'orders.csv', ...flags], here, true);
    expect(stopped.status).not.toBe(EXIT_CODES.ok);
    const resumed = await gw(['batch', 'capture', 'orders.csv', '--resume', ...flags], elsewhere);
    expect(resumed.err).toBe('');
    expect(
      readFileSync(join(elsewhere, 'orders.capture.results.csv'), 'utf8')
        .split('\n')
        .filter((l) => l && !l.includes('succeeded'))
        .slice(0, 3),
    ).toEqual(['index,transaction_id,order_no,outcome,status,reason,reconciled,reconcile']);
    expect(resumed.status).toBe(EXIT_CODES.ok);
    expect(readFileSync(join(elsewhere, 'orders.capture.results.csv'), 'utf8').match(/succeeded/g)).toHaveLength(300);
    for (const id of ids) expect(sandbox.state.appliedCounts('capture').get(id)).toBe(1);
  });

  it('refuses a worker without --batch, and a ledger that is not a postgres:// URL, before sending anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-ledger-c-'));
    const noBatch = await gw(['batch', 'worker', '--ledger', ledger, '--base-url', sandbox.url, '--sandbox-defaults'], dir);
    expect(noBatch.status).toBe(EXIT_CODES.usage);
    expect(noBatch.err).toContain('--batch');
    await ordersFile(dir, 'orders.csv', 1);
    const badUrl = await gw(['batch', 'capture', 'orders.csv', '--ledger', 'mysql://u:secret@h/db', '--base-url', sandbox.url, '--sandbox-defaults'], dir);
    expect(badUrl.status).toBe(EXIT_CODES.usage);
    expect(badUrl.err).toContain('postgres://');
    expect(badUrl.err).not.toContain('secret');
  });
});
