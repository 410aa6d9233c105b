// CPU time per call only (process.cpuUsage in this process): gw verify + parse + de-duplicate (awaited, and through the
// synchronous API) against the hand-written receiver, in alternating batches, as bench.ts measures it, without the
// throughput runs. For profiling and quick checks.
// Run: cd bench && npx -y pnpm@10.34.9 exec node --conditions=@gw/source notifications/cpu.ts [rounds]
import { loadavg } from 'node:os';
import { createMemoryDedupeStore, verifyNotification, verifyNotificationSync, verifySettings, type DedupeStore } from '@gw/notifications';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { BENCH_SECRET, cardPaymentNotifications, handWrittenHeaders, handWrittenVerify } from './fixtures.ts';

const COUNT = 4096;
const BATCH = 512;
const ROUNDS = Number(process.argv[2] ?? 120);
const notifications = await cardPaymentNotifications(COUNT);
const headers = handWrittenHeaders(notifications);
const settings = verifySettings({ verifiers: [createHmacSha256Signer({ secret: BENCH_SECRET })] });
let store: DedupeStore = createMemoryDedupeStore();
let gwIndex = 0;
async function gw(): Promise<void> {
  const n = notifications[gwIndex]!;
  const event = await verifyNotification({ body: n.bytes, headers: n.headers }, settings);
  const claimed = store.claim(event.id, 60_000);
  if ((typeof claimed === 'string' ? claimed : await claimed) !== 'claimed') throw new Error('expected a new event');
  const committed = store.commit(event.id);
  if (committed) await committed;
  if (++gwIndex === COUNT) {
    gwIndex = 0;
    store = createMemoryDedupeStore();
  }
}
let syncStore: DedupeStore = createMemoryDedupeStore();
let syncIndex = 0;
function gwSync(): void {
  const n = notifications[syncIndex]!;
  const event = verifyNotificationSync({ body: n.bytes, headers: n.headers }, settings);
  if (syncStore.claim(event.id, 60_000) !== 'claimed') throw new Error('expected a new event');
  syncStore.commit(event.id);
  if (++syncIndex === COUNT) {
    syncIndex = 0;
    syncStore = createMemoryDedupeStore();
  }
}
let handIndex = 0;
function hand(): void {
  if (!handWrittenVerify(headers[handIndex]!, notifications[handIndex]!.bytes)) throw new Error('hand-written did not verify');
  handIndex = (handIndex + 1) % COUNT;
}
for (let k = 0; k < 2 * COUNT; k++) {
  await gw();
  gwSync();
  hand();
}
let gwMicros = 0;
let syncMicros = 0;
let handMicros = 0;
for (let round = 0; round < ROUNDS; round++) {
  let start = process.cpuUsage();
  for (let k = 0; k < BATCH; k++) await gw();
  let spent = process.cpuUsage(start);
  gwMicros += spent.user + spent.system;
  start = process.cpuUsage();
  for (let k = 0; k < BATCH; k++) gwSync();
  spent = process.cpuUsage(start);
  syncMicros += spent.user + spent.system;
  start = process.cpuUsage();
  for (let k = 0; k < BATCH; k++) hand();
  spent = process.cpuUsage(start);
  handMicros += spent.user + spent.system;
}
const calls = ROUNDS * BATCH;
console.log(`gw ${(gwMicros / calls).toFixed(2)} µs awaited, ${(syncMicros / calls).toFixed(2)} µs synchronous; hand-written ${(handMicros / calls).toFixed(2)} µs; ratio ${(handMicros / gwMicros).toFixed(2)}x awaited, ${(handMicros / syncMicros).toFixed(2)}x synchronous; load ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
