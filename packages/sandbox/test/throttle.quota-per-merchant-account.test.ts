import { describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULT_MERCHANT, startSandbox } from '../src/index.ts';
import { fire, fireAll, ready } from './throttle-harness.ts';

const OTHER = { merchantId: 'M200', accountId: 'A200' };

describe('throttle: a quota per merchant account', () => {
  it('two merchant accounts do not share a quota; requests naming an account the sandbox does not know are not counted', async () => {
    await using sandbox = await startSandbox({ merchants: [SANDBOX_DEFAULT_MERCHANT, OTHER], throttle: { ratePerSecond: 3 } });
    const mine = await ready('query', { order_no: 'X' });
    const theirs = await ready('query', { order_no: 'X', merchant_id: OTHER.merchantId, account_id: OTHER.accountId });
    const replies = await fireAll(sandbox, [mine, theirs, mine, theirs, mine, theirs, mine, theirs]);
    const count = (from: number, status: number) => replies.filter((r, i) => i % 2 === from && r.status === status).length;
    expect([count(0, 200), count(0, 429), count(1, 200), count(1, 429)]).toEqual([3, 1, 3, 1]);
    const stats = sandbox.throttle.stats();
    expect(stats.accounts.map((a) => [a.merchantId, a.accountId, a.accepted, a.throttled])).toEqual([
      ['M100200', 'A300400', 3, 1],
      ['M200', 'A200', 3, 1],
    ]);
    expect(stats.perSecond.reduce((n, s) => n + s.accepted, 0)).toBe(6);

    // An unknown merchant, or a known one with another account: refused by the gateway's rules, not counted.
    for (const record of [
      { merchant_id: 'M999', account_id: 'A999' },
      { merchant_id: OTHER.merchantId, account_id: 'A-OTHER' },
    ]) {
      const reply = await fire(sandbox, await ready('query', { order_no: 'X', ...record }));
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ return_status: '0' });
    }
    expect([sandbox.throttle.stats().accepted, sandbox.throttle.stats().throttled]).toEqual([6, 2]);
  });
});
