import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorisedOrders, indexesOf, journalEntries } from './harness.ts';
import { runCrashChild } from './crash-child-run.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const captureRequests = () => sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;

describe('a batch killed after intents were written ahead, before their chunks were sent', () => {
  it('resume queries the chunks never sent, sends their orders once (not counted against maxResends), and nothing is lost or doubled', async () => {
    const orders = await authorisedOrders(sandbox, 400, '31.00');
    const dir = mkdtempSync(join(tmpdir(), 'gw-ahead-'));
    const file = join(dir, 'orders.json');
    writeFileSync(file, JSON.stringify(orders));
    const journal = join(dir, 'journal.jsonl');
    // maxResends 0: a send the journal cannot prove was made must not use up a budget there is none of.
    const env = { SANDBOX_URL: sandbox.url, JOURNAL: journal, OPERATION: 'capture', ORDERS: file, MAX_RESENDS: '0' };
    const before = captureRequests();
    // Intake writes chunk 1's intent alone, then twice as many chunks a time (2-3, 4-7, ...: chunk 1's outcomes may
    // join a group when its answer comes first). The kill comes as chunk 2 is about to be sent, its intent durable:
    // chunk 1 is out (or answered); 2 and the chunks written ahead with it never left.
    const killed = await runCrashChild({ ...env, CRASH_STAGE: 'intent-written', CRASH_CHUNK: '2' });
    expect(killed.signal).toBe('SIGKILL');
    await new Promise((r) => setTimeout(r, 300)); // a request in flight lands

    const lines = journalEntries<{ type: string; chunk?: number | null }>(journal);
    const intents = lines.filter((l) => l.type === 'intent').map((l) => l.chunk!);
    const sentAtKill = captureRequests() - before;
    expect(sentAtKill).toBeLessThanOrEqual(1);
    // Every intent was on disk before its chunk's send, and the kill left them with nothing else: no sent, outcomes or
    // unsent line, but chunk 1's outcomes when its answer came in time to join the group of intents 2-8.
    expect(intents.length).toBeGreaterThanOrEqual(3);
    expect(intents).toEqual(intents.map((_, i) => i + 1));
    // Each intake write records the input it read (its range and digest) with the intents it gave.
    expect(lines.filter((l) => l.type === 'input').length).toBeGreaterThanOrEqual(2);
    const others = lines.filter((l) => l.type !== 'intent' && l.type !== 'start' && l.type !== 'input');
    expect(others.every((l) => l.type === 'outcomes' && l.chunk === 1)).toBe(true);
    const inDoubtAtKill = sentAtKill - others.length;

    const resumed = await runCrashChild({ ...env, RESUME: '1' });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const result = JSON.parse(resumed.stdout) as { counts: Record<string, number>; outcomes: { index: number; kind: string; reconciled: boolean }[] };
    expect(indexesOf(result.outcomes)).toEqual(orders.map((_, i) => i));
    expect(result.counts).toEqual({ succeeded: 400, failed: 0, rejected: 0, unknown: 0 });
    // The chunk that was out with no outcomes journaled (if it landed) is known by query; every other order went out
    // once, in resume.
    expect(result.outcomes.filter((o) => o.reconciled)).toHaveLength(50 * inDoubtAtKill);
    const applied = sandbox.state.appliedCounts('capture');
    for (const o of orders) expect(applied.get(o.transaction_id), o.order_no).toBe(1);
    // 400 orders, 8 requests of 50 in all: no order of a chunk written ahead and never sent went out twice.
    expect(captureRequests() - before).toBe(8);
    expect(sandbox.state.invariantViolations()).toEqual([]);
  }, 60_000);
});
