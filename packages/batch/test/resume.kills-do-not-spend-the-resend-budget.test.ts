// A send a kill cut off before it could go out is not a send. Resume settles it by query and sends it again
// without counting it against maxResends; only a send the journal proves was made (a `sent` line) is counted.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumeBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, journalEntries } from './harness.ts';
import { runCrashChild } from './crash-child-run.ts';

/** The crash child's request timeout and margin: a resume after a kill waits them out (the dead holder's requests). */
const AFTER_A_KILL = { timeoutMs: 2000, sendMarginMs: 100 };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const at = '2026-11-23T00:00:00.000Z';

function journalOf(lines: object[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'gw-kill-budget-')), 'journal.jsonl');
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return path;
}

describe('resends after kills', () => {
  it('an order killed before its send three times in a row (more than maxResends 2) is still captured, once', async () => {
    const orders = await authorisedOrders(sandbox, 1, '31.00');
    const dir = mkdtempSync(join(tmpdir(), 'gw-kills-'));
    writeFileSync(join(dir, 'orders.json'), JSON.stringify(orders));
    const env = { SANDBOX_URL: sandbox.url, JOURNAL: join(dir, 'journal.jsonl'), OPERATION: 'capture', ORDERS: join(dir, 'orders.json') };
    const kill = { CRASH_STAGE: 'intent-written', CRASH_CHUNK: 'any' };
    expect((await runCrashChild({ ...env, ...kill })).signal).toBe('SIGKILL');
    expect((await runCrashChild({ ...env, ...kill, RESUME: '1' })).signal).toBe('SIGKILL');
    expect((await runCrashChild({ ...env, ...kill, RESUME: '1' })).signal).toBe('SIGKILL');
    const last = await runCrashChild({ ...env, RESUME: '1' });
    expect(last.stderr).toBe('');
    expect(JSON.parse(last.stdout).outcomes).toEqual([{ index: 0, kind: 'succeeded', reconciled: false }]);
    expect(sandbox.state.appliedCounts('capture').get(orders[0]!.transaction_id)).toBe(1);
    // Three intents were cut off before sending; the journal says so in the last one.
    const intents = journalEntries<{ type: string; orders: { interrupted?: number; resends?: number }[] }>(env.JOURNAL).filter((e) => e.type === 'intent');
    expect(intents.map((e) => e.orders[0]!.interrupted ?? 0)).toEqual([0, 1, 2, 3]);
    expect(intents.map((e) => e.orders[0]!.resends ?? 0)).toEqual([0, 0, 0, 0]);
  }, 60_000);

  it('an intent with no proof of sending, then a send that goes unanswered: failed after 1 send, the cut-off one named and not counted', async () => {
    const [order] = await authorisedOrders(sandbox, 1, '32.00');
    const journal = journalOf([
      { type: 'start', version: 1, operation: 'capture', limit: 50, at },
      { type: 'intent', chunk: 1, orders: [{ index: 0, order }], at },
    ]);
    sandbox.faults.inject('/v1/capture', 'reset-before');
    const before = sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;
    const result = await resumeBatch({ client: clientFor(sandbox), journal, orders: [order!], reconcile: sandboxReconciler, maxResends: 0, ...AFTER_A_KILL });
    expect(result.outcomes).toEqual([
      expect.objectContaining({ kind: 'failed', reason: expect.stringMatching(/after 1 send \(and 1 more cut off by a crash or kill .*not counted\)/) }),
    ]);
    expect(sandbox.state.requests.filter((r) => r.path === '/v1/capture').length - before).toBe(1);
  });

  it('an intent whose `sent` line proves the send is counted: with maxResends 0 it is failed without another send', async () => {
    const [order] = await authorisedOrders(sandbox, 1, '33.00');
    const journal = journalOf([
      { type: 'start', version: 1, operation: 'capture', limit: 50, at },
      { type: 'intent', chunk: 1, orders: [{ index: 0, order }], at },
      { type: 'sent', chunk: 1, at },
    ]);
    const before = sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;
    const result = await resumeBatch({ client: clientFor(sandbox), journal, orders: [order!], reconcile: sandboxReconciler, maxResends: 0, ...AFTER_A_KILL });
    expect(result.outcomes).toEqual([expect.objectContaining({ kind: 'failed', reason: expect.stringContaining('after 1 send;') })]);
    expect(sandbox.state.requests.filter((r) => r.path === '/v1/capture').length - before).toBe(0);
  });

  it('a resume killed after the query, before the resend, does not count the unproven send either', async () => {
    const [order] = await authorisedOrders(sandbox, 1, '34.00');
    // Chunk 1 was cut off unproven; a resume queried it (not applied, not counted) and was killed before chunk 2.
    const journal = journalOf([
      { type: 'start', version: 1, operation: 'capture', limit: 50, at },
      { type: 'intent', chunk: 1, orders: [{ index: 0, order }], at },
      { type: 'outcomes', chunk: 1, outcomes: [], resend: [0], notCounted: [0], at },
    ]);
    sandbox.faults.inject('/v1/capture', 'reset-before');
    const result = await resumeBatch({ client: clientFor(sandbox), journal, orders: [order!], reconcile: sandboxReconciler, maxResends: 0, ...AFTER_A_KILL });
    expect(result.outcomes).toEqual([expect.objectContaining({ kind: 'failed', reason: expect.stringContaining('after 1 send (and 1 more cut off') })]);
  });
});
