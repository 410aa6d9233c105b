import { describe, expect, it } from 'vitest';
import { decodeCardRespon } from '@gw/xml-codec';
import { startSandbox } from '../src/index.ts';
import { api } from './control-harness.ts';
import { cardPayment, send } from './harness.ts';

describe('control API: reset', () => {
  it('empties orders, subscriptions, payouts, notifications and faults; the sandbox keeps its address and never reuses an id', async () => {
    await using sandbox = await startSandbox();
    const first = decodeCardRespon((await send(sandbox, 'authoriseCard', cardPayment({ subscription: { contract_name: 'Gold' } }))).text);
    await send(sandbox, 'payout', { request_id: crypto.randomUUID(), payment_amount: '1.00', payment_currency: 'USD' });
    await api(sandbox, 'POST', 'faults/inject', { path: '/v1/refund', kind: 'http-5xx' });
    const reset = await api(sandbox, 'POST', 'reset');
    expect(reset.json).toEqual({ reset: true, orders: 0, notifications: 0 });
    for (const list of ['orders', 'subscriptions', 'payouts', 'notifications', 'refunds']) expect((await api(sandbox, 'GET', list)).json[list]).toEqual([]);
    expect((await api(sandbox, 'GET', 'faults')).json.queued).toEqual({});
    expect(sandbox.state.ledger).toEqual([]);
    const second = decodeCardRespon((await send(sandbox, 'authoriseCard', cardPayment())).text);
    expect(second.order_status).toBe('1');
    expect(second.transaction_id).not.toBe(first.transaction_id);
    expect((await api(sandbox, 'GET', 'orders')).json.orders).toHaveLength(1);
  });

  it('is off with control: false: the API and console paths answer 404 like any unknown path', async () => {
    await using sandbox = await startSandbox({ control: false });
    for (const path of ['/sandbox/api/orders', '/sandbox/console']) {
      const reply = await fetch(`${sandbox.url}${path}`);
      expect(reply.status).toBe(404);
      expect(JSON.parse(await reply.text())).toMatchObject({ return_message: `no operation at ${path}` });
    }
  });
});
