// What the notification benches share: the secret, the signed notifications they verify, the hand-written receiver
// they are measured against, the measured calls (the gw path: verify + parse + de-duplicate, awaited and through the
// synchronous API; the hand-written receiver), CPU time per call in alternating batches, and JS heap per call.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import { constructEvent, constructEventAsync, createMemoryDedupeStore, type DedupeStore, type SyncDedupeStore, type VerifyOptions } from '@gw/notifications';
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
          data: {
            merchant_id: 'M100200',
            account_id: 'A300400',
            order_no: `ORD-${i}`,
            amount: '100.00',
            currency: 'USD',
            transaction_id: `T20261123${String(i).padStart(8, '0')}`,
            card: '411111******1111',
            order_status: '1',
            result_info: '0000:Success',
            recurring_id: '',
            recurring_deduction_period: '',
            recurring_deduction_time: '',
            note: 'gift wrap, leave at the door',
            token_id: '',
            connector: 'gw-sandbox',
            threeds_result: 'N',
            risk_action: 'ACCEPT',
            risk_score: 10,
            risk_reasons: '',
          },
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

/**
 * gw verify + parse + de-duplicate of the next notification, awaited as the receiver does (the store's answer only when
 * it is a promise; the memory store answers at once). A fresh store each pass through the notifications, so every call
 * claims and commits a new event.
 */
export function gwVerifyParseDedupe(notifications: readonly SignedNotification[], options: VerifyOptions): () => Promise<void> {
  let store: DedupeStore = createMemoryDedupeStore();
  let index = 0;
  return async () => {
    const n = notifications[index]!;
    const event = await constructEventAsync({ body: n.bytes, headers: n.headers }, options);
    const claimed = store.claim(event.id, 60_000);
    if ((typeof claimed === 'string' ? claimed : await claimed) !== 'claimed') throw new Error('bench: expected a new event');
    const committed = store.commit(event.id);
    if (committed) await committed;
    if (++index === notifications.length) {
      index = 0;
      store = createMemoryDedupeStore();
    }
  };
}

/** The same through `constructEvent` (no promise), called as the hand-written check is: no promise anywhere. */
export function gwSyncVerifyParseDedupe(notifications: readonly SignedNotification[], options: VerifyOptions): () => void {
  let store: SyncDedupeStore = createMemoryDedupeStore();
  let index = 0;
  return () => {
    const n = notifications[index]!;
    const event = constructEvent({ body: n.bytes, headers: n.headers }, options);
    if (store.claim(event.id, 60_000) !== 'claimed') throw new Error('bench: expected a new event');
    store.commit(event.id);
    if (++index === notifications.length) {
      index = 0;
      store = createMemoryDedupeStore();
    }
  };
}

/** The hand-written receiver's check of the next notification (`headers` from handWrittenHeaders). */
export function handWrittenCheck(notifications: readonly SignedNotification[], headers: readonly string[], parse = false): () => unknown {
  let index = 0;
  const utf8 = new TextDecoder();
  return () => {
    const { bytes } = notifications[index]!;
    if (!handWrittenVerify(headers[index]!, bytes)) throw new Error('bench: the hand-written check did not verify');
    index = (index + 1) % notifications.length;
    // A receiver that also parses: the body as received, decoded and parsed, as every receiver must.
    return parse ? JSON.parse(utf8.decode(bytes)) : undefined;
  };
}

/**
 * CPU time (process.cpuUsage, user + system) per call of each task, in µs: the tasks in alternating batches of `batch`
 * calls, `rounds` times, so another process's load slows them alike. A task's promise is awaited.
 */
export async function cpuMicrosPerCall<K extends string>(tasks: Record<K, () => unknown>, rounds: number, batch: number): Promise<Record<K, number>> {
  const names = Object.keys(tasks) as K[];
  const micros = Object.fromEntries(names.map((name) => [name, 0])) as Record<K, number>;
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      const task = tasks[name];
      const start = process.cpuUsage();
      for (let k = 0; k < batch; k++) {
        const done = task();
        if (done instanceof Promise) await done;
      }
      const spent = process.cpuUsage(start);
      micros[name] += spent.user + spent.system;
    }
  }
  for (const name of names) micros[name] /= rounds * batch;
  return micros;
}

/**
 * Bytes allocated on the JS heap per call: the heap's used size before and after batches too small to trigger a
 * collection (a batch during which one ran shows a drop and is dropped), median over many batches.
 */
export async function heapBytesPerCall(step: (i: number) => unknown, count: number, batch = 32, batches = 400): Promise<number> {
  const samples: number[] = [];
  let sink: unknown;
  for (let round = 0; round < batches; round++) {
    const from = (round * batch) % count;
    const before = getHeapStatistics().used_heap_size;
    for (let k = 0; k < batch; k++) {
      sink = step((from + k) % count);
      if (sink instanceof Promise) await sink;
    }
    const after = getHeapStatistics().used_heap_size;
    if (after > before) samples.push((after - before) / batch);
  }
  void sink;
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}
