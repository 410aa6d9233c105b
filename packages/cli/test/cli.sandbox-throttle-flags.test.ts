import { operations } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, runCli } from '../src/index.ts';
import { capturedIo, gwStarted } from './io.ts';

/** Runs `gw sandbox ...` in this process; resolves once it printed its address. */
const running = (args: string[]) => gwStarted(['sandbox', ...args], /listening on (http:\S+)/);

describe('gw sandbox throttle flags', () => {
  it('--rate-limit 40/s --max-in-flight 3 reach the sandbox, and its banner says so', async () => {
    const run = await running(['--port', '0', '--rate-limit', '40/s', '--max-in-flight', '3']);
    try {
      expect(await (await fetch(`${run.url}/sandbox/api/throttle`)).json()).toEqual({ throttle: { ratePerSecond: 40, maxInFlight: 3 } });
      expect(run.c.out()).toContain('throttles each merchant account at 40 requests/s and 3 in flight');
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });

  it('--rate-limit 2 (no /s) throttles the third of three requests sent at once with 429 and Retry-After', async () => {
    const run = await running(['--port', '0', '--rate-limit', '2']);
    try {
      // Unsigned: the sandbox refuses them after the throttle counted them, which is all this test needs.
      const body = new URLSearchParams({ merchant_id: 'M100200', account_id: 'A300400', order_no: 'X' }).toString();
      const send = () => fetch(`${run.url}${operations.query.path}`, { method: 'POST', headers: { 'content-type': operations.query.requestMediaType }, body });
      const replies = await Promise.all([send(), send(), send()]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 429]);
      expect(replies.find((r) => r.status === 429)!.headers.get('retry-after')).toBe('1');
      await Promise.all(replies.map((r) => r.text()));
      const { stats } = (await (await fetch(`${run.url}/sandbox/api/throttle/stats`)).json()) as { stats: { accepted: number; throttled: number } };
      expect([stats.accepted, stats.throttled]).toEqual([2, 1]);
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });

  it('refuses bad values naming each, exit 2, and lists both flags in its help', async () => {
    const c = capturedIo();
    expect(await runCli(['sandbox', '--port', '0', '--rate-limit', '40/min', '--max-in-flight', '0'], c.io, c.signals)).toBe(EXIT_CODES.usage);
    expect(c.err()).toMatch(/2 bad flag/);
    expect(c.err()).toContain('--rate-limit "40/min" must be requests per second');
    expect(c.err()).toContain('--max-in-flight "0" must be a whole number from 1 to 100000');
    for (const bad of ['0/s', '1.5', '-3', 'fast', '2000001']) {
      const each = capturedIo();
      expect(await runCli(['sandbox', '--port', '0', '--rate-limit', bad], each.io, each.signals)).toBe(EXIT_CODES.usage);
      expect(each.err()).toContain(`--rate-limit ${JSON.stringify(bad)}`);
    }
    const help = capturedIo();
    expect(await runCli(['sandbox', '--help'], help.io, help.signals)).toBe(0);
    for (const flag of ['--rate-limit <n/s>', '--max-in-flight <n>']) expect(help.out()).toContain(flag);
  });
});
