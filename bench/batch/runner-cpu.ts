// CPU per request of runBatch (no journal; the file journal with O_DSYNC; the journal as before it, write + fdatasync)
// next to the sandbox's, in one run, and optionally a CPU profile of the journal side: a figure that load on a shared
// machine distorts far less than wall time. Each journal side prints its writes and fdatasyncs per run.
//   node --conditions=@gw/source batch/runner-cpu.ts [orders=10000] [rounds=3]   (GW_PROFILE=DIR writes a .cpuprofile)
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@gw/client';
import { open } from 'node:fs/promises';
import { openSyncedJournalFile, runBatch, type BatchClient, type JournalFile } from '@gw/batch';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { encodeRequestBody } from '@gw/xml-codec';
import { Agent, request } from 'undici';
import { authoriseOrders, type AuthorisingClient } from './authorise-orders.ts';
import { startSandboxProcess } from '../sandbox/sandbox-process.ts';
import { processCpuMicros } from './process-cpu.ts';

const ORDERS = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const CHUNKS = Math.ceil(ORDERS / 50);
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const { child, port } = await startSandboxProcess();
const options = { baseUrl: `http://127.0.0.1:${port}`, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer, verifier: signer };
const client = createClient(options) as unknown as BatchClient;
const setup = createClient(options) as unknown as AuthorisingClient;
const dir = mkdtempSync(join(tmpdir(), 'gw-runner-cpu-'));

const authorise = (count: number, prefix: string) => authoriseOrders(setup, count, prefix);

const sandboxCpu = (): number => processCpuMicros(child.pid);

/** One runBatch; `plain`: the journal opened without O_DSYNC, a datasync after each write (the journal before O_DSYNC). */
async function side(journal: string | undefined, count: number, prefix: string, plain = false) {
  const orders = await authorise(count, prefix);
  const cpu = process.cpuUsage();
  const sb = sandboxCpu();
  const syncs = { writes: 0, syncs: 0 };
  const journalFile = async (path: string) => {
    const file: JournalFile = plain ? await open(path, 'a') : await openSyncedJournalFile(path);
    return { write: ((...a: Parameters<typeof file.write>) => (syncs.writes++, file.write(...a))) as typeof file.write, datasync: () => (syncs.syncs++, file.datasync()), close: () => file.close(), ...('syncedWrites' in file ? { syncedWrites: true as const } : {}) };
  };
  const result = await runBatch({ client, operation: 'capture', orders, concurrency: 8, keepOutcomes: false, ...(journal ? { journal, journalFile } : {}) });
  const own = process.cpuUsage(cpu);
  if (journal && count === ORDERS) console.log(`  journal${plain ? ' (write + fdatasync)' : ' (O_DSYNC)'}: ${syncs.writes} writes, ${syncs.syncs} fdatasyncs for ${Math.ceil(count / 50)} requests; CPU user ${(own.user / 1000).toFixed(0)} ms, system ${(own.system / 1000).toFixed(0)} ms`);
  if (result.counts.succeeded !== count) throw new Error(JSON.stringify(result.counts));
  const chunks = Math.ceil(count / 50);
  return { own: (own.user + own.system) / chunks, sandbox: (sandboxCpu() - sb) / chunks };
}

type Orders = Awaited<ReturnType<typeof authorise>>;
/** The same chunks through a plain loop: `send` per chunk of 50, 8 at a time; CPU per request of the sending alone. */
async function loop(count: number, prefix: string, prepare: (chunks: Orders[]) => unknown[], send: (item: unknown) => Promise<unknown>) {
  const orders = await authorise(count, prefix);
  const chunks: Orders[] = [];
  for (let i = 0; i < orders.length; i += 50) chunks.push(orders.slice(i, i + 50));
  const items = prepare(chunks);
  let next = 0;
  const cpu = process.cpuUsage();
  const sb = sandboxCpu();
  await Promise.all(Array.from({ length: 8 }, async () => { while (next < items.length) await send(items[next++]); }));
  const own = process.cpuUsage(cpu);
  return { own: (own.user + own.system) / chunks.length, sandbox: (sandboxCpu() - sb) / chunks.length };
}
const merchant = { merchant_id: options.merchantId, account_id: options.accountId };
const dispatcher = new Agent({ connections: 8 });
const hand = (count: number, prefix: string) => loop(count, prefix, (chunks) => chunks.map((capture_orders) => {
  const record = { ...merchant, capture_orders };
  const encryption_data = signer.sign(createSignableMessage({ operation: 'capture', record, body: '' }));
  return encodeRequestBody('capture', { ...record, encryption_data });
}), async (body) => { const res = await request(`${options.baseUrl}/v1/capture`, { method: 'POST', body: body as string, headers: { 'content-type': 'application/json' }, dispatcher }); await res.body.text(); });
const clientLoop = (count: number, prefix: string) => loop(count, prefix, (chunks) => chunks, (capture_orders) => (client as unknown as { capture(r: object): Promise<unknown> }).capture({ capture_orders }));
await hand(2000, 'W2');
await clientLoop(2000, 'W3');
await side(undefined, 2000, 'W0');
await side(join(dir, 'w.jsonl'), 2000, 'W1');
await side(join(dir, 'wf.jsonl'), 2000, 'W4', true);
const rows: Record<string, { own: number; sandbox: number }[]> = { hand: [], client: [], none: [], journal: [], fdatasync: [] };
for (let r = 0; r < ROUNDS; r++) {
  rows.hand!.push(await hand(ORDERS, `H${r}`));
  rows.client!.push(await clientLoop(ORDERS, `C${r}`));
  rows.none!.push(await side(undefined, ORDERS, `N${r}`));
  rows.journal!.push(await side(join(dir, `j${r}.jsonl`), ORDERS, `J${r}`));
  rows.fdatasync!.push(await side(join(dir, `f${r}.jsonl`), ORDERS, `F${r}`, true));
}
// Load inflates CPU time (shared caches and cores), it never deflates it: the least of the rounds is the steadier figure.
const least = (xs: number[]) => Math.min(...xs);
for (const [name, list] of Object.entries(rows)) {
  console.log(`${name.padEnd(8)} bench process ${least(list.map((x) => x.own)).toFixed(0).padStart(5)} µs/request (least of ${list.map((x) => x.own.toFixed(0)).join(', ')}); sandbox ${least(list.map((x) => x.sandbox)).toFixed(0)} µs/request; ratio ${least(list.map((x) => x.own / x.sandbox)).toFixed(2)}`);
}
if (process.env.GW_PROFILE) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  for (const journal of [undefined, join(dir, 'p.jsonl')]) {
    const orders = await authorise(ORDERS, journal ? 'PJ' : 'PN');
    await session.post('Profiler.start');
    await runBatch({ client, operation: 'capture', orders, concurrency: 8, keepOutcomes: false, ...(journal ? { journal } : {}) });
    const { profile } = await session.post('Profiler.stop');
    const file = join(process.env.GW_PROFILE, `runner-${journal ? 'journal' : 'none'}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`profile ${file} (${CHUNKS} requests)`);
  }
  if (process.env.GW_PROFILE_HEAP) {
    await session.post('HeapProfiler.enable');
    const orders = await authorise(ORDERS, 'PH');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
    await runBatch({ client, operation: 'capture', orders, concurrency: 8, keepOutcomes: false, journal: join(dir, 'h.jsonl') });
    const { profile } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(join(process.env.GW_PROFILE, 'runner-journal.heapprofile'), JSON.stringify(profile));
  }
}
process.exit(0);
