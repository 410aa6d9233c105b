// Stage microbenchmark of the gw notification path: each step timed on its own, on inputs made fresh for it (texts
// freshly decoded, objects freshly parsed), as CPU time per call (process.cpuUsage) over many rounds, median.
// Run: cd bench && npx -y pnpm@10.34.9 exec node --conditions=@gw/source notifications/stages.ts [rounds]
import { loadavg } from 'node:os';
import { createMemoryDedupeStore, decodeGwNotification, envelopeProblems, headerValue, notificationMessage, parseSignatureHeader, verifyNotification, verifySettings, type DecodedNotification } from '@gw/notifications';
import { type SignedNotification } from '@gw/notifications/testing';
import { BENCH_SECRET, cardPaymentNotifications, handWrittenHeaders, handWrittenVerify } from './fixtures.ts';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { median } from '../median.ts';

const SECRET = BENCH_SECRET;
const COUNT = 2048;
const ROUNDS = Number(process.argv[2] ?? 15);

const notifications = await cardPaymentNotifications(COUNT);
// Headers with a hand-written v1 signature over `t.` and the bytes, for the hand-written baseline.
const handHeaders = handWrittenHeaders(notifications);
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const verifier = createHmacSha256Signer({ secret: SECRET });
const settings = verifySettings({ verifiers: [createHmacSha256Signer({ secret: SECRET })] });
let sink: unknown;

interface Stage {
  readonly name: string;
  /** Makes the inputs of one round (untimed), fresh each round. */
  readonly prepare: () => unknown[];
  readonly run: (input: unknown) => unknown;
  readonly async?: boolean;
}
const fresh = <T>(make: (n: SignedNotification, i: number) => T) => (): T[] => notifications.map(make);
const stages: Stage[] = [
  { name: 'hand-written receiver (t,v1 from header, HMAC of t. + bytes, compare)', prepare: fresh((n, i) => i), run: (i) => handWritten(i as number) },
  { name: 'headerValue gw-signature + content-length', prepare: fresh((n) => n.headers), run: (h) => [headerValue(h as Record<string, string>, 'gw-signature'), headerValue(h as Record<string, string>, 'content-length')] },
  { name: 'parseSignatureHeader', prepare: fresh((n) => n.headers['gw-signature']), run: (v) => parseSignatureHeader(v as string) },
  { name: 'UTF-8 decode (TextDecoder fatal)', prepare: fresh((n) => n.bytes), run: (b) => UTF8.decode(b as Uint8Array) },
  { name: 'JSON.parse of a freshly decoded text', prepare: fresh((n) => UTF8.decode(n.bytes)), run: (t) => JSON.parse(t as string) },
  { name: 'envelopeProblems on a freshly parsed object', prepare: fresh((n) => JSON.parse(UTF8.decode(n.bytes))), run: (v) => envelopeProblems(v) },
  { name: 'notificationMessage (createSignableMessage)', prepare: fresh((n) => [parseSignatureHeader(n.headers['gw-signature']).t, UTF8.decode(n.bytes)]), run: (p) => notificationMessage('authoriseCard', (p as string[])[0]!, (p as string[])[1]!) },
  { name: 'reference verifier.verify on a fresh message', prepare: fresh((n) => decodeGwNotification({ body: n.bytes, headers: n.headers })), run: (d) => verifier.verify((d as DecodedNotification).message, (d as DecodedNotification).signatures[0]!) },
  { name: 'decodeGwNotification whole', prepare: fresh((n) => ({ body: n.bytes, headers: n.headers })), run: (input) => decodeGwNotification(input as { body: Uint8Array; headers: Record<string, string> }) },
  { name: 'verifyNotification whole (awaited)', prepare: fresh((n) => ({ body: n.bytes, headers: n.headers })), run: (input) => verifyNotification(input as { body: Uint8Array; headers: Record<string, string> }, settings), async: true },
  { name: 'memory store claim + commit', prepare: fresh((n, i) => `evt_${i}_${Math.random()}`), run: (id) => (store.claim(id as string, 60_000), store.commit(id as string)) },
];
let store = createMemoryDedupeStore();

function handWritten(i: number): boolean {
  return handWrittenVerify(handHeaders[i]!, notifications[i]!.bytes);
}

async function roundOf(stage: Stage): Promise<number> {
  const inputs = stage.prepare();
  store = createMemoryDedupeStore();
  const start = process.cpuUsage();
  if (stage.async) for (let i = 0; i < inputs.length; i++) sink = await stage.run(inputs[i]);
  else for (let i = 0; i < inputs.length; i++) sink = stage.run(inputs[i]);
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / inputs.length;
}

// Warm-up: every stage compiled before any is timed.
for (const stage of stages) for (let r = 0; r < 3; r++) await roundOf(stage);
// Rounds interleave the stages, so a burst of another process's load touches all alike.
const samples = stages.map(() => [] as number[]);
for (let r = 0; r < ROUNDS; r++) for (let s = 0; s < stages.length; s++) samples[s]!.push(await roundOf(stages[s]!));
void sink;
console.log(`CPU µs per call, median of ${ROUNDS} rounds of ${COUNT} fresh inputs (${notifications[0]!.bytes.byteLength}-byte bodies); load ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
for (let s = 0; s < stages.length; s++) console.log(`${median(samples[s]!).toFixed(2).padStart(7)}  ${stages[s]!.name}`);
