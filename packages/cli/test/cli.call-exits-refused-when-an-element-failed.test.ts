import type { Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw } from './io.ts';
import { sandboxForFile } from './sandbox-harness.ts';

let sandbox: Sandbox;
sandboxForFile((started) => (sandbox = started));

const call = (operation: string, record: unknown) =>
  gw(['call', operation, '--data', '-', '--base-url', sandbox.url, '--sandbox-defaults'], { stdin: JSON.stringify(record) });

const card = { currency: 'USD', amount: '3.00', expiration_month: '12', expiration_year: '2030', security_code: '123' };

describe('gw call with an answer that refuses part of the request', () => {
  it('exits with the "gateway refused" status when a capture element failed, and still prints the answer', async () => {
    const failed = await call('capture', { capture_orders: [{ transaction_id: 'T-NONE', order_no: 'O-NONE', currency: 'USD', amount: '1.00' }] });
    expect(failed.status).toBe(EXIT_CODES.gateway);
    expect(JSON.parse(failed.out).capture_orders[0].capture_status).not.toBe('1');
    expect(failed.err).toContain('capture_orders[0]');

    const paid = await call('authoriseCard', { ...card, order_no: `CALL-${process.pid}-ok`, card: '4111111111111111' });
    expect(paid.status).toBe(EXIT_CODES.ok);
    const { transaction_id, order_no } = JSON.parse(paid.out);
    const mixed = await call('capture', {
      capture_orders: [
        { transaction_id, order_no, currency: 'USD', amount: '3.00' },
        { transaction_id: 'T-NONE', order_no: 'O-NONE', currency: 'USD', amount: '1.00' },
      ],
    });
    expect(mixed.status).toBe(EXIT_CODES.gateway);
    expect(JSON.parse(mixed.out).capture_orders.map((e: { capture_status: string }) => e.capture_status)).toEqual(['1', expect.not.stringMatching(/^1$/)]);
    const again = await call('capture', { capture_orders: [{ transaction_id: 'T-NONE-2', order_no: 'O-NONE-2', currency: 'USD', amount: '1.00' }] });
    expect(again.status).toBe(EXIT_CODES.gateway);
  });

  it('exits with the "gateway refused" status for a declined payment and an unknown subscription, 0 when applied', async () => {
    const declined = await call('authoriseCard', { ...card, order_no: `CALL-${process.pid}-declined`, card: '4000000000000002' });
    expect(declined.status).toBe(EXIT_CODES.gateway);
    expect(JSON.parse(declined.out).order_status).toBe('0');
    expect(declined.err).toContain('order_status 0');
    expect(declined.out + declined.err).not.toContain('4000000000000002');

    const subscription = await call('cancelSubscription', { recurring_id: 'R-NONE', contract_name: 'none' });
    expect(subscription.status).toBe(EXIT_CODES.gateway);

    const query = await call('query', { order_no: 'NOT-THERE' });
    expect(query.status).toBe(EXIT_CODES.ok);
  });
});
