// The journal's lock is the run's fence: each request is written only while `<journal>.lock` is still the file the
// run made. A lock removed by hand mid-run (so that another run could take the journal) stops the run before its next
// send, whatever any clock says; the requests in flight finish, and a resume finishes the batch with each order once.
import { existsSync, mkdtempSync, readFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalLockLostError, resumeBatch, runBatch } from '../src/index.ts';
import { capturedRefundOrders, clientFor, indexesOf, refundsPerOrder } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const refundRequests = () => sandbox.state.requests.filter((r) => r.path === '/v1/refund').length;

describe('a journal run whose lock file is removed while it sends', () => {
  it('sends nothing after that (JournalLockLostError once its requests in flight are over), and the resume refunds each order once', async () => {
    const refunds = await capturedRefundOrders(sandbox, 400);
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-fence-')), 'refunds.jsonl');
    sandbox.faults.setRules({ '/v1/refund': { latencyMs: 300 } });
    const before = refundRequests();
    const run = runBatch({ client: clientFor(sandbox), operation: 'refund', orders: refunds, journal, concurrency: 1 }).catch((e: unknown) => e);
    while (!(existsSync(journal) && readFileSync(journal, 'utf8').includes('"type":"intent"'))) await sleep(5);
    await sleep(100);
    unlinkSync(`${journal}.lock`);
    const stopped = await run;
    sandbox.faults.setRules({});
    expect(stopped).toBeInstanceOf(JournalLockLostError);
    expect(stopped).toMatchObject({ code: 'GW_INTERRUPTED', details: { journal, lockFile: `${journal}.lock` } });
    // The one request in flight when the lock went (300 ms each, one at a time) finished; none started after it.
    expect(refundRequests() - before).toBe(1);

    const resumed = await resumeBatch({ client: clientFor(sandbox), journal, orders: refunds, reconcile: sandboxReconciler });
    expect(indexesOf(resumed.outcomes)).toEqual(refunds.map((_, i) => i));
    expect(refundsPerOrder(sandbox, refunds)).toEqual(refunds.map(() => 1));
  });
});
