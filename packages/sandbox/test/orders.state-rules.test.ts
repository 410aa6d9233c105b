import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_ERRORS, startSandbox, type Sandbox } from '../src/index.ts';
import { authorisedOrder, send } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const authorised = (amount = '50.00') => authorisedOrder(sandbox, amount);

async function batch(operation: 'capture' | 'cancel' | 'review' | 'refund', elements: Record<string, unknown>[]) {
  const array = `${operation}_orders`;
  const reply = await send(sandbox, operation, { [array]: elements });
  expect(reply.status).toBe(200);
  expect(reply.json).toMatchObject({ return_status: '1', return_message: 'OK' });
  expect(typeof reply.json.encryption_data).toBe('string');
  return reply.json[array] as Record<string, string>[];
}

describe('capture, cancel and review follow the sandbox state machine (UNKNOWNS U28)', () => {
  it('captures an authorised order once; a second capture fails per element', async () => {
    const order = await authorised();
    const [first] = await batch('capture', [order]);
    expect(first).toMatchObject({ ...order, capture_status: '1', error_message: '' });
    const [again] = await batch('capture', [order]);
    expect(again).toMatchObject({ capture_status: '0', error_message: ORDER_ERRORS.captured });
    expect(sandbox.state.appliedCounts('capture').get(order.transaction_id)).toBe(1);
  });

  it('does not capture a cancelled order and does not cancel a captured one', async () => {
    const a = await authorised();
    const b = await authorised();
    expect((await batch('cancel', [a]))[0]).toMatchObject({ cancel_status: '1' });
    expect((await batch('capture', [a]))[0]).toMatchObject({ capture_status: '0', error_message: ORDER_ERRORS.cancelled });
    expect((await batch('capture', [b]))[0]).toMatchObject({ capture_status: '1' });
    expect((await batch('cancel', [b]))[0]).toMatchObject({ cancel_status: '0', error_message: expect.stringMatching(/^E205:/) });
  });

  it('gives each element its own result in request order, unknown orders and mismatched amounts included', async () => {
    const good = await authorised('20.00');
    const results = await batch('capture', [
      { transaction_id: 'T-NOPE', order_no: 'nope', currency: 'USD', amount: '1.00' },
      { ...good, amount: '21.00' },
      good,
    ]);
    expect(results.map((r) => [r.transaction_id, r.capture_status, r.error_message])).toEqual([
      ['T-NOPE', '0', ORDER_ERRORS.notFound],
      [good.transaction_id, '0', ORDER_ERRORS.mismatch],
      [good.transaction_id, '1', ''],
    ]);
  });

  it('reviews with flag 1 (approve) and 0 (reject: the order is cancelled); refuses other flags per element', async () => {
    const a = await authorised();
    const b = await authorised();
    const c = await authorised();
    const results = await batch('review', [
      { ...a, review_flag: '1' },
      { ...b, review_flag: '0' },
      { ...c, review_flag: 'maybe' },
    ]);
    expect(results.map((r) => r.review_status)).toEqual(['1', '1', '0']);
    expect(results[2]!.error_message).toBe(ORDER_ERRORS.reviewFlag);
    expect(sandbox.state.orders.get(b.transaction_id)?.state).toBe('cancelled');
    expect(sandbox.state.orders.get(a.transaction_id)?.reviewFlag).toBe('1');
  });

  it('refuses an over-limit array whole with return_status 0, processing nothing', async () => {
    const order = await authorised();
    const elements = Array.from({ length: 51 }, () => order);
    const reply = await send(sandbox, 'capture', { capture_orders: elements });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ return_status: '0', return_message: 'E002:capture_orders carries 51 orders; at most 50 per request' });
    expect(sandbox.state.orders.get(order.transaction_id)?.state).toBe('authorised');
    const review = await send(sandbox, 'review', { review_orders: Array.from({ length: 100 }, () => ({ ...order, review_flag: '1' })) });
    expect(review.json.return_status).toBe('1');
    expect(review.json.review_orders).toHaveLength(100);
  });
});
