import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatch, type OrderOutcome } from '../src/index.ts';
import { authorisedOrders, clientFor } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('an input that pauses (a stream, a paginated source)', () => {
  for (const journaled of [true, false]) {
    it(`does not hold back chunks already cut from what it gave (${journaled ? 'with' : 'without'} a journal)`, async () => {
      const orders = await authorisedOrders(sandbox, 300, '11.00');
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      async function* source() {
        for (let i = 0; i < 250; i++) yield orders[i]!;
        await held; // the rest comes later
        for (let i = 250; i < 300; i++) yield orders[i]!;
      }
      const decided: OrderOutcome[] = [];
      let firstPart!: () => void;
      const firstPartDone = new Promise<void>((resolve) => (firstPart = resolve));
      const journal = journaled ? join(mkdtempSync(join(tmpdir(), 'gw-slow-')), 'journal.jsonl') : undefined;
      sandbox.faults.setRules({ '/v1/capture': { latencyMs: 10 } });
      const running = runBatch({
        client: clientFor(sandbox),
        operation: 'capture',
        orders: source(),
        concurrency: 2,
        ...(journal ? { journal } : {}),
        onOutcome: (outcome) => {
          decided.push(outcome);
          if (decided.length === 250) firstPart();
        },
      });
      // Every order the source has given so far is settled while it pauses.
      const inTime = await Promise.race([firstPartDone.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);
      const settledWhilePaused = decided.length;
      sandbox.faults.setRules({});
      release();
      const result = await running;
      expect(inTime, `${settledWhilePaused} of the first 250 orders settled while the source paused`).toBe(true);
      expect(result.counts.succeeded).toBe(300);
    }, 30_000);
  }
});
