import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalLockedError, runBatch } from '../src/index.ts';
import { capturedRefundOrders, clientFor, refundsPerOrder } from './harness.ts';
import { startCrashChild } from './crash-child-run.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const entries = (journal: string) =>
  readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string });
const refundRequests = () => sandbox.state.requests.filter((r) => r.path === '/v1/refund').length;

describe('two runBatch on one new journal started at the same instant', () => {
  it('in one process: exactly one runs, the other throws JournalLockedError before sending; no order refunded twice', async () => {
    const refunds = await capturedRefundOrders(sandbox, 200);
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-lock-')), 'refunds.jsonl');
    const client = clientFor(sandbox);
    const before = refundRequests();
    sandbox.faults.setRules({ '/v1/refund': { latencyMs: 50 } });
    const settled = await Promise.allSettled([
      runBatch({ client, operation: 'refund', orders: refunds, journal, concurrency: 2 }),
      runBatch({ client, operation: 'refund', orders: refunds, journal, concurrency: 2 }),
    ]);
    sandbox.faults.setRules({});

    const ran = settled.filter((s) => s.status === 'fulfilled');
    const refused = settled.filter((s) => s.status === 'rejected');
    expect(ran).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.reason).toBeInstanceOf(JournalLockedError);
    expect(refused[0]!.reason).toMatchObject({
      code: 'GW_CONFIG',
      details: { journal, lockFile: `${journal}.lock`, reason: 'alive', holder: { pid: process.pid, host: hostname(), role: 'run' } },
    });
    expect(String(refused[0]!.reason.message)).toContain(`pid ${process.pid} on host ${hostname()}`);
    expect(ran[0]!.value.counts.succeeded).toBe(200);
    expect(refundsPerOrder(sandbox, refunds)).toEqual(refunds.map(() => 1));
    // One request per intent: the refused run sent nothing at all.
    expect(refundRequests() - before).toBe(entries(journal).filter((e) => e.type === 'intent').length);
    expect(entries(journal).filter((e) => e.type === 'start')).toHaveLength(1);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  }, 60_000);

  it('as two processes: exactly one runs, the other exits refused naming the first; no order refunded twice', async () => {
    const refunds = await capturedRefundOrders(sandbox, 200);
    const dir = mkdtempSync(join(tmpdir(), 'gw-lock-'));
    const journal = join(dir, 'refunds.jsonl');
    writeFileSync(join(dir, 'orders.json'), JSON.stringify(refunds));
    const before = refundRequests();
    // Long enough that a child that boots late still finds the other one running.
    sandbox.faults.setRules({ '/v1/refund': { latencyMs: 500 } });
    const env = { SANDBOX_URL: sandbox.url, JOURNAL: journal, OPERATION: 'refund', ORDERS: join(dir, 'orders.json'), START_AT: String(Date.now() + 3_000) };
    const children = [startCrashChild(env), startCrashChild(env)];
    const ended = await Promise.all(children.map((c) => c.ended));
    sandbox.faults.setRules({});

    const ran = ended.findIndex((e) => e.code === 0);
    const refused = ended.findIndex((e) => e.code === 2);
    expect(ended.map((e) => e.code).sort()).toEqual([0, 2]);
    expect(ended[refused]!.stderr).toBe('');
    const { refused: error } = JSON.parse(ended[refused]!.stdout) as { refused: { name: string; code: string; details: Record<string, unknown> } };
    expect(error).toMatchObject({
      name: 'JournalLockedError',
      code: 'GW_CONFIG',
      details: { journal, reason: 'alive', holder: { pid: children[ran]!.pid, host: hostname(), role: 'run' } },
    });
    expect((JSON.parse(ended[ran]!.stdout) as { counts: { succeeded: number } }).counts.succeeded).toBe(200);
    expect(refundsPerOrder(sandbox, refunds)).toEqual(refunds.map(() => 1));
    expect(refundRequests() - before).toBe(entries(journal).filter((e) => e.type === 'intent').length);
    expect(entries(journal).filter((e) => e.type === 'start')).toHaveLength(1);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  }, 60_000);
});
