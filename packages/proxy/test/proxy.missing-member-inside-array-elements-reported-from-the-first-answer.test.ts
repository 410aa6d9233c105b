import { startSandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { startProxy } from '../src/index.ts';
import { CARD, clientAt, CVV, signer } from './support.ts';

const pay = { currency: 'USD', amount: '40.00', card: CARD, expiration_month: '12', expiration_year: '2031', security_code: CVV };

describe('missing members, through gw proxy', () => {
  it('a member dropped inside batch elements is reported from the very first answer, once per answer (seed §2.6)', async () => {
    await using sandbox = await startSandbox({
      answerDrift: { capture: { drop: ['capture_orders[].amount'] }, refund: { drop: ['refund_orders[].refund_reason'] } },
    });
    await using proxy = await startProxy({ upstream: sandbox.url, verifier: signer });
    const client = clientAt(proxy.url);
    const a = await client.authoriseCard({ ...pay, order_no: 'ECHO-1' });
    const b = await client.authoriseCard({ ...pay, order_no: 'ECHO-2' });
    const ref = (r: typeof a, order_no: string) => ({ transaction_id: r.transaction_id!, order_no, currency: 'USD', amount: '40.00' });
    await client.capture({ capture_orders: [ref(a, 'ECHO-1'), ref(b, 'ECHO-2')] });
    await client.refund({ refund_orders: [{ ...ref(a, 'ECHO-1'), refund_amount: '1.00', refund_reason: 'damaged' }] });
    await proxy.settled();
    expect(proxy.report.drift.map(({ operation, kind, path, count }) => ({ operation, kind, path, count }))).toEqual([
      { operation: 'capture', kind: 'missing-field', path: 'capture_orders[].amount', count: 1 },
      { operation: 'refund', kind: 'missing-field', path: 'refund_orders[].refund_reason', count: 1 },
    ]);
    expect(proxy.report.drift[0]!.message).toContain('not echoed');
  });

  it('a failed order, an unknown one and an order without a subscription are not taken for missing members', async () => {
    await using sandbox = await startSandbox();
    await using proxy = await startProxy({ upstream: sandbox.url, verifier: signer });
    const client = clientAt(proxy.url);
    const sub = await client.authoriseCard({
      ...pay,
      order_no: 'OPT-1',
      subscription: { contract_name: 'Gold', interval: 'day', interval_count: '30', billing_cycle: 12 },
    });
    await client.query({ transaction_id: [sub.transaction_id!] });
    const plain = await client.authoriseCard({ ...pay, order_no: 'OPT-2' });
    await client.authoriseCard({ ...pay, order_no: 'OPT-2' }); // a used order_no: refused, a shorter answer
    await client.query({ order_no: 'OPT-2,UNKNOWN-1' });
    const ref = { transaction_id: plain.transaction_id!, order_no: 'OPT-2', currency: 'USD', amount: '40.00' };
    await client.capture({ capture_orders: [ref] });
    await client.capture({ capture_orders: [ref, { ...ref, transaction_id: 'T-UNKNOWN', order_no: 'UNKNOWN-2' }] });
    await proxy.settled();
    expect(proxy.report.drift).toEqual([]);
    expect(proxy.report.observations.query?.values['orders_list[].query_result']?.counts).toEqual({ '1': 2, '0': 1 });
  });
});
