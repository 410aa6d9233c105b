import type { Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import type { GwClient } from '../src/index.ts';
import { cardPayment, refusedBeforeSending, withSandboxClient } from './support.ts';

let sandbox: Sandbox;
let client: GwClient;
withSandboxClient((s, c) => {
  sandbox = s;
  client = c;
});

/** Awaits `call`, expecting a ValidationError with nothing sent to the sandbox. */
const refused = (call: Promise<unknown>) => refusedBeforeSending(sandbox, call);

const order = { transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' };

describe('validation before anything is sent', () => {
  it('reports every problem at once, with field paths', async () => {
    const error = await refused(
      client.capture({
        capture_orders: [
          { ...order, currency: 'usd' },
          { ...order, amount: '1,00' },
        ],
      }),
    );
    expect(error.code).toBe('GW_VALIDATION');
    expect(error.details.problems.map((p) => p.field)).toEqual(['capture_orders[0].currency', 'capture_orders[1].amount']);
    expect(error.message).toContain('capture: 2 problems in CaptureRequest');
  });

  it('a card payment with bad formats names the fields, never the values', async () => {
    const error = await refused(client.authoriseCard(cardPayment({ currency: 'dollars', amount: '12.5', billing_country: 'USA', expiration_month: '7' })));
    expect(error.details.problems.map((p) => p.field).sort()).toEqual(['amount', 'billing_country', 'currency', 'expiration_month']);
    expect(error.message).not.toContain('dollars');
    expect(error.message).not.toContain('4111111111111111');
  });

  it.each([
    ['capture', 'capture_orders', 50],
    ['cancel', 'cancel_orders', 50],
    ['refund', 'refund_orders', 50],
    ['review', 'review_orders', 100],
  ] as const)('%s over its limit of %i orders is refused whole, pointing to @gw/batch', async (operation, array, limit) => {
    const orders = Array.from({ length: limit + 1 }, (_, i) => ({ ...order, order_no: `O${i}`, refund_amount: '1.00', review_flag: '1' }));
    const error = await refused((client[operation] as (r: object) => Promise<unknown>)({ [array]: orders }));
    expect(error.details.problems).toContainEqual(expect.objectContaining({ field: array, keyword: 'maxItems' }));
    expect(error.message).toContain(`at most ${limit} orders per request`);
    expect(error.message).toContain('@gw/batch');
  });

  it('a query over 100 values, or a value holding the separator, is refused', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `O${i}`);
    const error = await refused(client.query({ order_no: many, transaction_id: ['T1', 'T,2'] }));
    expect(error.details.problems.map((p) => [p.field, p.keyword])).toEqual([
      ['order_no', 'maxItems'],
      ['transaction_id[1]', 'pattern'],
    ]);
    expect(error.message).toContain('@gw/batch');
  });

  it('the variant of /v1/authorise is never left to chance (UNKNOWNS U34)', async () => {
    const missing = await refused(client.authoriseAlternative({ order_no: 'A1', amount: '1.00' }));
    expect(missing.details.problems).toEqual([expect.objectContaining({ field: 'payment_method', keyword: 'required' })]);
    const present = await refused(client.authoriseCard({ ...cardPayment(), payment_method: 'PIX' } as never));
    expect(present.details.problems).toEqual([expect.objectContaining({ field: 'payment_method', keyword: 'not' })]);
  });

  it('merchant_id, account_id and encryption_data given by the caller are replaced, not validated', async () => {
    const result = await client.query({ order_no: ['NOPE'], merchant_id: 'x', encryption_data: 'y' } as never);
    expect(result.return_status).toBe('1');
  });
});
