import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.ts';
import { Throttle } from '../src/throttle/throttle.ts';
import { fire, ready } from './throttle-harness.ts';

const MERCHANTS = new Map([['M100200', 'A300400']]);
const EPOCH = Date.UTC(2026, 0, 1);

/** Requests arriving after the given gaps (ms) at `rate` per second, each answered at once: accepted times, verdicts. */
function run(rate: number, gaps: readonly number[]) {
  let now = EPOCH;
  const throttle = new Throttle(MERCHANTS, { ratePerSecond: rate }, () => now);
  const account = throttle.account('M100200', 'A300400')!;
  const accepted: number[] = [];
  const throttled: { at: number; retryAfterSeconds: number }[] = [];
  for (const gap of gaps) {
    now += gap;
    const verdict = throttle.admit(account);
    if (verdict === null) {
      accepted.push(now);
      account.answered();
    } else throttled.push({ at: now, retryAfterSeconds: verdict.retryAfterSeconds });
  }
  return { accepted, throttled, stats: throttle.stats() };
}

const inWindow = (times: readonly number[], end: number) => times.filter((t) => t > end - 1000 && t <= end).length;

describe('throttle: the sliding window', () => {
  it('never accepts more than N in any 1000 ms, refuses only when N were accepted in the 1000 ms before, and has room after Retry-After', () => {
    const gaps = fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 400 }), fc.double({ min: 0, max: 1200, noNaN: true })), {
      maxLength: 300,
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), gaps, (rate, arrivals) => {
        const { accepted, throttled, stats } = run(rate, arrivals);
        // Any N + 1 accepted requests span at least 1000 ms: no window of 1000 ms holds more than N.
        for (let i = 0; i + rate < accepted.length; i++) expect(accepted[i + rate]! - accepted[i]!).toBeGreaterThanOrEqual(1000);
        for (const { at, retryAfterSeconds } of throttled) {
          expect(inWindow(accepted, at)).toBe(rate);
          expect(retryAfterSeconds).toBeGreaterThanOrEqual(1);
          expect(Number.isInteger(retryAfterSeconds)).toBe(true);
          expect(
            inWindow(
              accepted.filter((t) => t <= at),
              at + retryAfterSeconds * 1000,
            ),
          ).toBeLessThan(rate);
        }
        expect([stats.accepted, stats.throttled]).toEqual([accepted.length, throttled.length]);
        expect(stats.perSecond.reduce((n, s) => n + s.accepted, 0)).toBe(accepted.length);
        for (const second of stats.perSecond) expect(second.accepted).toBeLessThanOrEqual(rate);
      }),
      { numRuns: 500 },
    );
  });

  it('over HTTP, a client sending as fast as it can is never let in more than N times in a wall-clock second, and every request is counted once', async () => {
    await using sandbox = await startSandbox({ throttle: { ratePerSecond: 10 } });
    const query = await ready('query', { order_no: 'X' });
    const started = performance.now();
    let sent = 0;
    const worker = async () => {
      while (performance.now() - started < 2100) {
        await fire(sandbox, query);
        sent += 1;
      }
    };
    await Promise.all([worker(), worker()]);
    const stats = sandbox.throttle.stats();
    expect(stats.accepted + stats.throttled).toBe(sent);
    expect(stats.accepted).toBeGreaterThanOrEqual(20);
    expect(stats.throttled).toBeGreaterThan(0);
    for (const second of stats.perSecond) expect(second.accepted).toBeLessThanOrEqual(10);
    expect(sandbox.state.requestCount).toBe(sent);
  });
});
