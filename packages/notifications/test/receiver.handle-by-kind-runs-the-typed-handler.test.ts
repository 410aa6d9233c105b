// handleByKind: each kind's handler runs with the event typed for its kind (data included), over real HTTP; kinds
// without a handler go to `otherwise` or are acknowledged; a handler for no known kind is refused at once.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createNotificationReceiver, handleByKind, NOTIFICATION_KINDS, type NotificationEvent, type RefundResult } from '../src/index.ts';
import { signedNotification } from '../src/testing.ts';
import { deliver, listen, SECRET } from './helpers.ts';
import { createHmacSha256Signer } from '@gw/signer-interface';

describe('handleByKind', () => {
  it('runs the handler of the event kind with its typed data; other kinds go to otherwise', async () => {
    const booked: string[] = [];
    const other: NotificationEvent[] = [];
    const onEvent = handleByKind(
      {
        'payment.refunded': (event) => {
          expectTypeOf(event.data).toEqualTypeOf<RefundResult>();
          expectTypeOf(event.operation).toEqualTypeOf<'refund'>();
          booked.push(`${event.kind} ${event.data.refund_state} ${event.data.refund_amount} of ${event.data.amount}`);
        },
        'subscription.cancelled': (event) => void booked.push(`${event.kind} ${event.data.recurring_id}`),
      },
      (event) => void other.push(event),
    );
    const receiver = createNotificationReceiver({ verifiers: [createHmacSha256Signer({ secret: SECRET })], onEvent });
    const { url, server } = await listen((req, res) => void receiver.node(req, res));
    try {
      const refund = await signedNotification({
        secret: SECRET,
        event: {
          kind: 'payment.refunded',
          operation: 'refund',
          data: { transaction_id: 'T1', amount: '10.00', refund_amount: '4.00', refund_status: '1', refund_state: 'partial', refunded_amount: '4.00' },
        },
      });
      const sub = await signedNotification({
        secret: SECRET,
        event: { kind: 'subscription.cancelled', operation: 'cancelSubscription', data: { recurring_id: 'R1', contract_name: 'Gold', cancel_status: '1' } },
      });
      const capture = await signedNotification({
        secret: SECRET,
        event: { kind: 'payment.captured', operation: 'capture', data: { transaction_id: 'T1', capture_status: '1' } },
      });
      for (const n of [refund, sub, capture]) expect((await deliver(url, n.body, n.headers)).json.outcome).toBe('processed');
      expect(booked).toEqual(['payment.refunded partial 4.00 of 10.00', 'subscription.cancelled R1']);
      expect(other.map((e) => e.kind)).toEqual(['payment.captured']);
    } finally {
      server.close();
    }
  });

  it('acknowledges a kind without a handler when there is no otherwise', async () => {
    expect(handleByKind({})({ kind: 'payment.captured' } as NotificationEvent)).toBeUndefined();
  });

  it('refuses an unknown kind or a handler that is not a function, listing every problem (GW_CONFIG)', () => {
    const bad = { 'payment.chargeback': () => {}, 'payment.captured': 'book' } as never;
    expect(() => handleByKind(bad)).toThrow(
      expect.objectContaining({
        code: 'GW_CONFIG',
        details: {
          problems: ['payment.chargeback is not a notification kind', 'the handler of payment.captured must be a function (event) => void | Promise<void>'],
        },
      }),
    );
    expect(NOTIFICATION_KINDS).toContain('payment.reviewed');
  });
});
