import { startSandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { OutcomeUnknownError, type ErrorEvent, type RequestEvent, type ResponseEvent } from '../src/index.ts';
import { authorisedOrder, cardPayment, sandboxClient } from './support.ts';

describe('hooks for logging and metrics', () => {
  it('onRequest and onResponse for each try, with redacted records and timings', async () => {
    await using sandbox = await startSandbox();
    const seen: (['request', RequestEvent] | ['response', ResponseEvent] | ['error', ErrorEvent])[] = [];
    await using client = sandboxClient(sandbox, {
      hooks: { onRequest: (e) => seen.push(['request', e]), onResponse: (e) => seen.push(['response', e]), onError: (e) => seen.push(['error', e]) },
    });
    const payment = cardPayment();
    await client.authoriseCard(payment);
    expect(seen.map(([kind]) => kind)).toEqual(['request', 'response']);
    const [, request] = seen[0] as ['request', RequestEvent];
    const [, response] = seen[1] as ['response', ResponseEvent];
    expect(request).toEqual({
      operation: 'authoriseCard',
      path: '/v1/authorise',
      attempt: 1,
      record: {
        ...payment,
        merchant_id: 'M100200',
        account_id: 'A300400',
        card: '[redacted]',
        security_code: '[redacted]',
        expiration_month: '[redacted]',
        expiration_year: '[redacted]',
      },
    });
    expect(request.record).not.toHaveProperty('encryption_data');
    expect(response).toMatchObject({
      operation: 'authoriseCard',
      attempt: 1,
      status: 200,
      record: { order_no: payment.order_no, card: '[redacted]', order_status: '1' },
    });
    expect(response.durationMs).toBeGreaterThan(0);

    seen.length = 0;
    sandbox.faults.inject('/v1/retrievalTrans', 'reset-before');
    await client.query({ order_no: [payment.order_no] });
    expect(seen.map(([kind, e]) => `${kind}:${e.attempt}${kind === 'error' ? `:${(e as ErrorEvent).willRetry}` : ''}`)).toEqual([
      'request:1',
      'error:1:true',
      'request:2',
      'response:2',
    ]);

    seen.length = 0;
    const order = await authorisedOrder(client);
    seen.length = 0;
    sandbox.faults.inject('/v1/capture', 'reset-after');
    await client.capture({ capture_orders: [order] }).catch(() => undefined);
    expect(seen.map(([kind]) => kind)).toEqual(['request', 'error']);
    const [, failed] = seen[1] as ['error', ErrorEvent];
    expect(failed).toMatchObject({ operation: 'capture', attempt: 1, willRetry: false, error: expect.any(OutcomeUnknownError) });
    expect(failed.durationMs).toBeGreaterThan(0);
  });

  it('validation failures reach onError with attempt 0; a hook that throws changes nothing', async () => {
    await using sandbox = await startSandbox();
    const errors: ErrorEvent[] = [];
    await using client = sandboxClient(sandbox, {
      hooks: {
        onRequest: () => {
          throw new Error('logger down');
        },
        onResponse: () => {
          throw new Error('logger down');
        },
        onError: (e) => errors.push(e),
      },
    });
    await expect(client.authoriseCard(cardPayment())).resolves.toMatchObject({ order_status: '1' });
    await expect(client.capture({ capture_orders: [{ currency: 'usd' }] })).rejects.toThrow(/capture_orders\[0\]\.currency/);
    expect(errors).toEqual([expect.objectContaining({ operation: 'capture', attempt: 0, willRetry: false })]);
  });
});
