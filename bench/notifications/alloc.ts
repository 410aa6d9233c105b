// Bytes allocated on the JS heap per call of each step of the gw notification path (see heap-per-call.ts).
// Run: cd bench && npx -y pnpm@10.34.9 exec node --conditions=@gw/source notifications/alloc.ts
import { createMemoryDedupeStore, decodeGwNotification, verifyNotification, verifyNotificationSync, verifySettings } from '@gw/notifications';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { BENCH_SECRET, cardPaymentNotifications, handWrittenHeaders, handWrittenVerify } from './fixtures.ts';
import { heapBytesPerCall } from './heap-per-call.ts';

const COUNT = 1024;
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const notifications = await cardPaymentNotifications(COUNT);
const headers = handWrittenHeaders(notifications);
const settings = verifySettings({ verifiers: [createHmacSha256Signer({ secret: BENCH_SECRET })] });
const verifier = createHmacSha256Signer({ secret: BENCH_SECRET });
const decoded = notifications.map((n) => decodeGwNotification({ body: n.bytes, headers: n.headers }));
let store = createMemoryDedupeStore();
const input = (i: number) => ({ body: notifications[i]!.bytes, headers: notifications[i]!.headers });
const steps: Record<string, (i: number) => unknown> = {
  'hand-written receiver': (i) => handWrittenVerify(headers[i]!, notifications[i]!.bytes),
  'UTF-8 decode + JSON.parse': (i) => JSON.parse(UTF8.decode(notifications[i]!.bytes)),
  decodeGwNotification: (i) => decodeGwNotification(input(i)),
  'reference verifier.verify (decoded message)': (i) => verifier.verify(decoded[i]!.message, decoded[i]!.signatures[0]!),
  verifyNotificationSync: (i) => verifyNotificationSync(input(i), settings),
  'verifyNotification (awaited)': (i) => verifyNotification(input(i), settings),
  'verifyNotificationSync + de-duplicate': (i) => {
    if (i === 0) store = createMemoryDedupeStore();
    const event = verifyNotificationSync(input(i), settings);
    store.claim(event.id, 60_000);
    store.commit(event.id);
  },
};
for (const step of Object.values(steps)) await heapBytesPerCall(step, COUNT); // warm-up: compiled before measuring
for (const [name, step] of Object.entries(steps)) console.log(`${String(Math.round(await heapBytesPerCall(step, COUNT))).padStart(6)} B  ${name}`);
