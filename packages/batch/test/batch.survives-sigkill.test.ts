import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';
import { runCrashChild } from './crash-child-run.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const CRASHES = [
  { name: 'before a send (intent written, nothing sent)', stage: 'intent-written', delay: '' },
  { name: 'after a send, before the answer', stage: 'intent-written', delay: '150', latency: true },
  { name: 'after the answer, before the journal write', stage: 'answered', delay: '' },
] as const;

describe('a batch killed with SIGKILL and resumed', () => {
  for (const operation of ['capture', 'refund'] as const) {
    for (const crash of CRASHES) {
      it(`${operation}: ${crash.name}: nothing applied twice, every order one outcome`, async () => {
        const orders = await authorisedOrders(sandbox, 120, '40.00');
        let input: Record<string, string>[] = orders;
        if (operation === 'refund') {
          const capture = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders });
          expect(capture.counts.succeeded).toBe(120);
          input = orders.map((o) => ({ ...o, refund_amount: '15.00', refund_reason: 'crash test' }));
        }
        const dir = mkdtempSync(join(tmpdir(), 'gw-crash-'));
        const file = join(dir, 'orders.json');
        writeFileSync(file, JSON.stringify(input));
        const path = operation === 'capture' ? '/v1/capture' : '/v1/refund';
        if ('latency' in crash) sandbox.faults.setRules({ [path]: { latencyMs: 600 } });
        const env = { SANDBOX_URL: sandbox.url, JOURNAL: join(dir, 'journal.jsonl'), OPERATION: operation, ORDERS: file };
        const killed = await runCrashChild({ ...env, CRASH_STAGE: crash.stage, CRASH_CHUNK: '2', CRASH_DELAY_MS: crash.delay });
        expect(killed.signal).toBe('SIGKILL');
        sandbox.faults.setRules({});
        await new Promise((r) => setTimeout(r, 'latency' in crash ? 800 : 0)); // let the in-flight request land
        const resumed = await runCrashChild({ ...env, RESUME: '1' });
        expect(resumed.stderr).toBe('');
        expect(resumed.code).toBe(0);
        const result = JSON.parse(resumed.stdout) as { counts: Record<string, number>; outcomes: { index: number; kind: string }[] };
        expect(indexesOf(result.outcomes)).toEqual(input.map((_, i) => i));
        const kind = operation === 'capture' ? 'capture' : 'refund';
        const applied = sandbox.state.appliedCounts(kind);
        const keys = input.map((o) => (operation === 'capture' ? o.transaction_id! : `${o.transaction_id}-01`));
        for (const key of keys) expect(applied.get(key) ?? 0, key).toBeLessThanOrEqual(1);
        for (const o of input) expect(sandbox.state.orders.get(o.transaction_id!)!.refunds.length).toBeLessThanOrEqual(1);
        // Every order the gateway applied is reported succeeded; none is reported succeeded without being applied.
        const succeeded = new Set(result.outcomes.filter((o) => o.kind === 'succeeded').map((o) => o.index));
        input.forEach((o, i) => {
          const done = operation === 'capture' ? applied.get(o.transaction_id!) === 1 : sandbox.state.orders.get(o.transaction_id!)!.refunds.length === 1;
          if (succeeded.has(i)) expect(done, `order #${i}`).toBe(true);
        });
        if (operation === 'capture') expect(result.counts.succeeded).toBe(120);
        expect(sandbox.state.invariantViolations()).toEqual([]);
      }, 60_000);
    }
  }
});
