import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalLockedError, resumeBatch } from '../src/index.ts';
import { capturedRefundOrders, clientFor, refundsPerOrder } from './harness.ts';
import { startCrashChild } from './crash-child-run.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const refundRequests = () => sandbox.state.requests.filter((r) => r.path === '/v1/refund').length;

/** Waits until the journal holds an intent: the run is sending. */
async function whileSending(journal: string): Promise<void> {
  while (!(existsSync(journal) && readFileSync(journal, 'utf8').includes('"type":"intent"'))) await sleep(10);
}

describe('a resume started while a run of the same journal is under way', () => {
  it('is refused before sending, at once and staggered; once the run has ended the lock is gone and a resume finds nothing to do', async () => {
    const refunds = await capturedRefundOrders(sandbox, 400);
    const dir = mkdtempSync(join(tmpdir(), 'gw-lock-'));
    const journal = join(dir, 'refunds.jsonl');
    writeFileSync(join(dir, 'orders.json'), JSON.stringify(refunds));
    // Answers take a second: the run's request timeout is well above it.
    const env = { SANDBOX_URL: sandbox.url, JOURNAL: journal, OPERATION: 'refund', ORDERS: join(dir, 'orders.json'), TIMEOUT_MS: '5000' };
    // 8 chunks of 50, two at a time, a second each: the run lasts about four seconds.
    sandbox.faults.setRules({ '/v1/refund': { latencyMs: 1_000 } });
    const run = startCrashChild(env);
    await whileSending(journal);

    const client = clientFor(sandbox);
    const atOnce = resumeBatch({ client, operation: 'refund', orders: refunds, journal });
    await expect(atOnce).rejects.toBeInstanceOf(JournalLockedError);
    await expect(atOnce).rejects.toMatchObject({
      code: 'GW_CONFIG',
      details: { journal, lockFile: `${journal}.lock`, reason: 'alive', holder: { pid: run.pid, host: hostname(), role: 'run' } },
    });
    await expect(atOnce).rejects.toThrow(`pid ${run.pid} on host ${hostname()}`);

    // Staggered, from another process while the run goes on: refused too, naming the run.
    await sleep(300);
    const staggered = await startCrashChild({ ...env, RESUME: '1' }).ended;
    expect(staggered.code).toBe(2);
    expect(JSON.parse(staggered.stdout)).toMatchObject({
      refused: { name: 'JournalLockedError', details: { reason: 'alive', holder: { pid: run.pid, role: 'run' } } },
    });

    const ran = await run.ended;
    sandbox.faults.setRules({});
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(refundsPerOrder(sandbox, refunds)).toEqual(refunds.map(() => 1));
    expect(existsSync(`${journal}.lock`)).toBe(false);

    const sent = refundRequests();
    const resumed = await resumeBatch({ client, operation: 'refund', orders: refunds, journal });
    expect(resumed.counts).toEqual({ succeeded: 400, failed: 0, rejected: 0, unknown: 0 });
    expect(refundRequests()).toBe(sent);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  }, 60_000);
});
