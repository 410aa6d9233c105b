import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchProgress } from '@gw/batch';
import { startSandbox } from '@gw/sandbox';
import { until } from '@gw/test-support';
import { describe, expect, it } from 'vitest';
import { progressReporterFor } from '../src/commands/batch-progress.ts';
import { runDemo } from '../src/demo/run-demo.ts';
import { capturedIo } from './io.ts';

const progress = (done: number, total: number): BatchProgress =>
  ({ done, total, ratePerSecond: done, etaSeconds: total - done, counts: { succeeded: done, failed: 0, rejected: 0, unknown: 0 } }) as unknown as BatchProgress;

describe('batch progress off a terminal (a log, a pipe)', () => {
  it('prints the first update at once, then the latest state every interval while it runs, and the end', async () => {
    const c = capturedIo();
    const reporter = progressReporterFor(c.io, 100);
    reporter.update(progress(50, 1000));
    reporter.update(progress(100, 1000)); // within the interval: not printed yet
    // Intervals with no news: the state is printed again, so a log shows the batch is alive. Waited for (at least
    // 250 ms, at most 5 s): on a loaded machine a 100 ms timer can slip past a fixed sleep.
    const started = Date.now();
    while (Date.now() - started < 250 || (c.out().split('progress: 100/1000').length < 3 && Date.now() - started < 5_000)) await sleep(25);
    reporter.update(progress(400, 1000));
    await until(() => c.out().includes('progress: 400/1000'), 5_000, 'the next interval to print 400/1000');
    reporter.update(progress(1000, 1000));
    reporter.stop();
    const lines = c.out().trimEnd().split('\n');
    expect(lines[0]).toBe('progress: 50/1000 orders (succeeded 50, failed 0, rejected 0, unknown 0), 50/s, ETA 16m');
    expect(lines.filter((l) => l.startsWith('progress: 100/1000')).length).toBeGreaterThanOrEqual(2);
    expect(lines).toContain('progress: 400/1000 orders (succeeded 400, failed 0, rejected 0, unknown 0), 400/s, ETA 10m');
    expect(lines.at(-1)).toBe('progress: 1000/1000 orders (succeeded 1000, failed 0, rejected 0, unknown 0), 1000/s, ETA 0s');
    await sleep(250); // time passing is the check: over two intervals after stop(), nothing more is printed
    expect(c.out().trimEnd().split('\n')).toHaveLength(lines.length); // stopped: nothing more
  });

  it("the demo's batch table gives the time of the capture and of authorising its orders first, which make up the step", async () => {
    const sandbox = await startSandbox();
    try {
      const c = capturedIo();
      expect(await runDemo(c.io, { sandbox, orders: 200 })).toBe(true);
      const text = c.out();
      const step = Number(/== batch capture of 200 orders \((\d+) ms\)/.exec(text)?.[1]);
      const authorising = Number(/ms authorising the orders first\s+(\d+)/.exec(text)?.[1]);
      const capture = Number(/ms of the batch capture\s+(\d+)/.exec(text)?.[1]);
      expect(authorising).toBeGreaterThan(0);
      expect(capture).toBeGreaterThan(0);
      expect(authorising + capture).toBeLessThanOrEqual(step + 1);
      expect(step - (authorising + capture)).toBeLessThan(step / 2 + 20); // the rest is printing the tables
      expect(text).toMatch(/progress: 200\/200 orders/);
      expect(text).not.toMatch(/^ seconds /m);
    } finally {
      await sandbox.stop();
    }
  }, 60_000);
});
