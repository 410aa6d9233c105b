// What the notification benches share: the secret, the signed notifications they verify, and the hand-written
// receiver they are measured against.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { signedNotification, type SignedNotification } from '@gw/notifications/testing';

export const BENCH_SECRET = 'bench-secret';

/** `count` realistic notifications: a card payment's result record as the sandbox sends it (~700 bytes), distinct event ids. */
export async function cardPaymentNotifications(count: number): Promise<SignedNotification[]> {
  const notifications: SignedNotification[] = [];
  for (let i = 0; i < count; i++) {
    notifications.push(
      await signedNotification({
        secret: BENCH_SECRET,
        event: {
          kind: 'payment.authorised',
          operation: 'authoriseCard',
          data: { merchant_id: 'M100200', account_id: 'A300400', order_no: `ORD-${i}`, amount: '100.00', currency: 'USD', transaction_id: `T20261123${String(i).padStart(8, '0')}`, card: '411111******1111', order_status: '1', result_info: '0000:Success', recurring_id: '', recurring_deduction_period: '', recurring_deduction_time: '', note: 'gift wrap, leave at the door', token_id: '', connector: 'gw-sandbox', threeds_result: 'N', risk_action: 'ACCEPT', risk_score: 10, risk_reasons: '' },
        },
      }),
    );
  }
  return notifications;
}

/**
 * A `t=<t>,v1=<hex>` header per notification whose signature is HMAC-SHA256 of `<t>.` and the body bytes, made once,
 * so the hand-written check verifies a real signature on every call.
 */
export function handWrittenHeaders(notifications: readonly SignedNotification[]): string[] {
  return notifications.map((n) => {
    const t = /t=(\d+)/.exec(n.headers['gw-signature']!)![1]!;
    return `t=${t},v1=${createHmac('sha256', BENCH_SECRET).update(`${t}.`).update(n.bytes).digest('hex')}`;
  });
}

/**
 * Raw as a hand-written receiver does it per request (Stripe's documented manual check): t and v1 read from the
 * header, HMAC-SHA256 of `<t>.` and the body bytes as received, the header's hex signature compared in constant time.
 */
export function handWrittenVerify(header: string, body: Uint8Array): boolean {
  const comma = header.indexOf(',v1=');
  const t = header.slice(2, comma);
  const expected = createHmac('sha256', BENCH_SECRET).update(`${t}.`).update(body).digest();
  const got = Buffer.from(header.slice(comma + 4), 'hex');
  return got.length === expected.length && timingSafeEqual(got, expected);
}
