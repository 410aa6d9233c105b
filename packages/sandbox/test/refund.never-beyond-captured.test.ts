import fc from 'fast-check';
import { decodeCardRespon } from '@gw/xml-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECLINE_CENTS, ORDER_ERRORS, startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment, send } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

async function captured(amount: string) {
  const payment = cardPayment({ amount });
  const respon = decodeCardRespon((await send(sandbox, 'authoriseCard', payment)).text);
  const order = { transaction_id: respon.transaction_id!, order_no: String(payment.order_no), currency: 'USD', amount };
  const capture = await send(sandbox, 'capture', { capture_orders: [order] });
  expect(capture.json.capture_orders[0].capture_status).toBe('1');
  return order;
}

async function refund(order: Record<string, string>, refund_amount: string) {
  const reply = await send(sandbox, 'refund', { refund_orders: [{ ...order, refund_amount, refund_reason: 'test' }] });
  expect(reply.json.return_status).toBe('1');
  return reply.json.refund_orders[0] as Record<string, string>;
}

describe('refunds are partial and repeated but never beyond the captured amount', () => {
  it('numbers refunds transaction_id-01, -02 and refuses the one that would exceed the capture', async () => {
    const order = await captured('100.00');
    expect(await refund(order, '30.00')).toMatchObject({
      refund_status: '1',
      refund_message: '0000:Success',
      refund_reference_id: `${order.transaction_id}-01`,
      refund_amount: '30.00',
      refund_reason: 'test',
    });
    expect(await refund(order, '70.00')).toMatchObject({ refund_status: '1', refund_reference_id: `${order.transaction_id}-02` });
    expect(await refund(order, '0.01')).toMatchObject({ refund_status: '0', refund_message: ORDER_ERRORS.refundedFully });
    expect(sandbox.state.orders.get(order.transaction_id)?.state).toBe('refunded');
  });

  it('refuses a refund of an order that was not captured', async () => {
    const payment = cardPayment({ amount: '10.00' });
    const respon = decodeCardRespon((await send(sandbox, 'authoriseCard', payment)).text);
    const result = await refund({ transaction_id: respon.transaction_id!, order_no: String(payment.order_no), currency: 'USD', amount: '10.00' }, '1.00');
    expect(result).toMatchObject({ refund_status: '0', refund_message: ORDER_ERRORS.notCaptured });
  });

  it('keeps the refunded total within the captured amount for any sequence of refunds (integer minor units)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100_000 }).filter((c) => c % 100 !== Number(DECLINE_CENTS)),
        fc.array(fc.integer({ min: 0, max: 60_000 }), { minLength: 1, maxLength: 8 }),
        async (capturedCents, refundCents) => {
          const amount = `${Math.floor(capturedCents / 100)}.${String(capturedCents % 100).padStart(2, '0')}`;
          const order = await captured(amount);
          let expectedTotal = 0;
          for (const cents of refundCents) {
            const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
            const result = await refund(order, text);
            const fits = cents > 0 && expectedTotal + cents <= capturedCents;
            expect(result.refund_status).toBe(fits ? '1' : '0');
            if (fits) expectedTotal += cents;
          }
          const stored = sandbox.state.orders.get(order.transaction_id)!;
          expect(sandbox.state.refundedMinor(stored)).toBe(BigInt(expectedTotal));
        },
      ),
      { numRuns: 40 },
    );
    expect(sandbox.state.invariantViolations()).toEqual([]);
  });
});
