import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.ts';
import { api } from './control-harness.ts';
import { cardPayment, send } from './harness.ts';

const capture = { capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] };

describe('control API: answer drift', () => {
  it('PUT /sandbox/api/drift makes the next answers add, drop and retype members; {} switches it off', async () => {
    await using sandbox = await startSandbox();
    expect((await api(sandbox, 'GET', 'drift')).json).toEqual({ rules: {} });
    const rules = { authoriseCard: { add: { settlement_window: 'T+1' }, drop: ['order_status'] }, capture: { retype: ['capture_orders[].amount'] } };
    const set = await api(sandbox, 'PUT', 'drift', rules);
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ rules });
    const drifted = await send(sandbox, 'authoriseCard', cardPayment({ amount: '12.00' }));
    expect(drifted.text).toContain('<settlement_window>T+1</settlement_window>');
    expect(drifted.text).not.toContain('<order_status>');
    expect((await send(sandbox, 'capture', capture)).json.capture_orders[0].amount).toBe(1);
    expect((await api(sandbox, 'GET', 'drift')).json).toEqual({ rules });

    await api(sandbox, 'PUT', 'drift', { rules: {} });
    const clean = await send(sandbox, 'authoriseCard', cardPayment({ amount: '12.00' }));
    expect(clean.text).toContain('<order_status>');
    expect(clean.text).not.toContain('settlement_window');
    expect((await send(sandbox, 'capture', capture)).json.capture_orders[0].amount).toBe('1.00');
  });

  it('refuses bad drift rules with every problem at once, changing nothing', async () => {
    await using sandbox = await startSandbox({ answerDrift: { capture: { wrongSignature: true } } });
    const bad = await api(sandbox, 'PUT', 'drift', { capture: { add: [1], drop: 'amount', wrongSignature: 'yes', colour: 1 }, pay: {}, '*': [] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_request');
    expect(bad.json.error.details.problems.map((p: { path: string }) => p.path)).toEqual([
      '"capture".add',
      '"capture".drop',
      '"capture".wrongSignature',
      '"capture".colour',
      '"pay"',
      '"*"',
    ]);
    expect((await api(sandbox, 'GET', 'drift')).json).toEqual({ rules: { capture: { wrongSignature: true } } });
  });

  it('refuses rules an answer cannot show (a retype in XML or HTML text, a bad signature where none is sent, a field added to a page)', async () => {
    await using sandbox = await startSandbox();
    const bad = await api(sandbox, 'PUT', 'drift', {
      authoriseCard: { retype: ['order_status'] },
      checkout: { add: { extra: '1' }, retype: ['orderNo'] },
      query: { wrongSignature: true },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.problems.map((p: { path: string }) => p.path)).toEqual([
      '"authoriseCard".retype',
      '"checkout".add',
      '"checkout".retype',
      '"query".wrongSignature',
    ]);
    expect(bad.json.error.details.problems[0].message).toContain('XML, which carries text only');
    expect((await api(sandbox, 'GET', 'drift')).json).toEqual({ rules: {} });
  });

  it("drops a checkout page's hidden field; '*' retypes JSON answers and leaves XML ones whole (no HTTP 500)", async () => {
    await using sandbox = await startSandbox({ answerDrift: { checkout: { drop: ['orderNo'] }, '*': { retype: ['risk_reasons', 'return_status'] } } });
    const page = await send(sandbox, 'checkout', { order_no: 'PAGE-1', currency: 'USD', amount: '9.90', return_url: 'https://shop.example.test/ok' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="order_no"');
    expect(page.text).not.toContain('name="orderNo"');
    const paid = await send(sandbox, 'authoriseCard', cardPayment({ amount: '12.00' }));
    expect(paid.status).toBe(200);
    expect(paid.text).toContain('<risk_reasons/>');
    expect((await send(sandbox, 'query', { order_no: 'NONE' })).json.return_status).toBe(1);
  });
});
