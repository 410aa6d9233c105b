import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { until } from '@gw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutcomeUnknownError, type GwClient } from '../src/index.ts';
import { authorisedOrder, cardPayment, requestsTo, sandboxClient } from './support.ts';

let sandbox: Sandbox;
let client: GwClient;
beforeAll(async () => {
  sandbox = await startSandbox();
  client = sandboxClient(sandbox, { retry: { attempts: 5, baseDelayMs: 1 } });
});
afterAll(async () => {
  await client.close();
  await sandbox.stop();
});

describe('OutcomeUnknownError: sent, no answer, never sent again', () => {
  it('capture reset after processing: applied once, sent once, every id of the batch carried', async () => {
    const orders = [await authorisedOrder(client), await authorisedOrder(client)];
    const before = requestsTo(sandbox, '/v1/capture').length;
    sandbox.faults.inject('/v1/capture', 'reset-after');
    const error = await client.capture({ capture_orders: orders }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    const unknown = error as OutcomeUnknownError;
    expect(unknown.code).toBe('GW_OUTCOME_UNKNOWN');
    expect(unknown.details).toMatchObject({ operation: 'capture', path: '/v1/capture', reason: 'connection-lost', request_id: null });
    expect(unknown.orderNos).toEqual(orders.map((o) => o.order_no));
    expect(unknown.transactionIds).toEqual(orders.map((o) => o.transaction_id));
    expect(unknown.message).toContain('NOT sent again');
    expect(unknown.message).toContain(`order_no ${orders[0]!.order_no}`);
    // It happened exactly once, and the client did not send it a second time.
    for (const order of orders) expect(sandbox.state.appliedCounts('capture').get(order.transaction_id)).toBe(1);
    expect(requestsTo(sandbox, '/v1/capture').slice(before)).toEqual([expect.objectContaining({ operation: 'capture', processed: true, outcome: 'ok' })]);
    // Reconciling as the message says: query shows the orders captured.
    const queried = await client.query({ transaction_id: unknown.transactionIds });
    expect(queried.orders_list?.map((o) => o.payment_status)).toEqual(['3001', '3001']);
  });

  it('reset before processing looks the same from outside: unknown, and not sent again', async () => {
    const order = await authorisedOrder(client);
    const before = requestsTo(sandbox, '/v1/capture').length;
    sandbox.faults.inject('/v1/capture', 'reset-before');
    await expect(client.capture({ capture_orders: [order] })).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(
      requestsTo(sandbox, '/v1/capture')
        .slice(before)
        .map((r) => r.outcome),
    ).toEqual(['reset-before']);
    expect(sandbox.state.orders.get(order.transaction_id)?.state).toBe('authorised');
  });

  it('a card payment carries its order_no; a payout its request_id', async () => {
    const payment = cardPayment();
    sandbox.faults.inject('/v1/authorise', 'reset-after');
    const paid = (await client.authoriseCard(payment).catch((e: unknown) => e)) as OutcomeUnknownError;
    expect(paid).toBeInstanceOf(OutcomeUnknownError);
    expect(paid.orderNos).toEqual([payment.order_no]);

    const requestId = randomUUID();
    sandbox.faults.inject('/v1/payout', 'reset-after');
    const payout = (await client
      .payout({ request_id: requestId, payment_amount: '10.00', payment_currency: 'USD' })
      .catch((e: unknown) => e)) as OutcomeUnknownError;
    expect(payout).toBeInstanceOf(OutcomeUnknownError);
    expect(payout.requestId).toBe(requestId);
    expect(payout.message).toContain(`request_id ${requestId}`);
    expect(sandbox.state.appliedCounts('payout').get(requestId)).toBe(1);
  });

  it('a money-moving request that times out after sending is unknown too, and not sent again', async () => {
    // A quota with no limit: it counts the requests in flight, which the wait below reads.
    await using slow = await startSandbox({ faults: { '/v1/capture': { latencyMs: 300 } }, throttle: {} });
    await using slowClient = sandboxClient(slow, { timeoutMs: 100 });
    const order = await authorisedOrder(slowClient);
    const error = await slowClient.capture({ capture_orders: [order] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).details.reason).toBe('timeout');
    // Every request the client sent before giving up has been answered (to nobody): a second send would be counted.
    await until(() => slow.throttle.stats().accounts.every((a) => a.inFlight === 0), 5000, 'the capture in flight to be answered');
    // Whether the sandbox got to it once the connection was gone is its business; twice it never is.
    expect(slow.state.appliedCounts('capture').get(order.transaction_id) ?? 0).toBeLessThanOrEqual(1);
    expect(requestsTo(slow, '/v1/capture').length).toBeLessThanOrEqual(1);
  });

  it('the sandbox state stayed consistent', () => {
    expect(sandbox.state.invariantViolations()).toEqual([]);
    expect(sandbox.state.internalErrors).toEqual([]);
  });
});
