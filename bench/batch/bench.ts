// 10,000 captures through runBatch vs an ideal hand loop (pre-built, pre-signed chunks of 50 sent with undici at the
// same concurrency) against the same sandbox in its own process, in one run; then peak RSS while 100,000 orders are
// streamed from a file through runBatch.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { createClient } from '@gw/client';
import { runBatch, type BatchClient } from '@gw/batch';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { encodeRequestBody } from '@gw/xml-codec';
import { writeResultsSection } from '../results.ts';

const ORDERS = Number(process.env.GW_BENCH_BATCH_ORDERS ?? 10_000);
const STREAMED = Number(process.env.GW_BENCH_STREAMED_ORDERS ?? 100_000);
const CONCURRENCY = 8;
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const merchant = { merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId, account_id: SANDBOX_DEFAULT_MERCHANT.accountId };

async function startSandboxProcess(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--conditions=@gw/source', join(import.meta.dirname, '../sandbox/sandbox-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout!.on('data', (c) => { const m = /PORT (\d+)/.exec(String(c)); if (m) resolve(Number(m[1])); }));
  return { child, url: `http://127.0.0.1:${port}` };
}

const { child, url } = await startSandboxProcess();
const client = createClient({ baseUrl: url, merchantId: merchant.merchant_id, accountId: merchant.account_id, signer, verifier: signer }) as unknown as BatchClient & { authoriseCard(r: object): Promise<{ transaction_id?: string }> };

async function authorise(count: number, prefix: string) {
  const orders: { transaction_id: string; order_no: string; currency: string; amount: string }[] = [];
  for (let i = 0; i < count; i += 64) {
    await Promise.all(Array.from({ length: Math.min(64, count - i) }, async (_, k) => {
      const order_no = `${prefix}-${i + k}`;
      const respon = await client.authoriseCard({ order_no, currency: 'USD', amount: '10.00', card: '4111111111111111', expiration_month: '12', expiration_year: '2030', security_code: '123' });
      orders[i + k] = { transaction_id: respon.transaction_id!, order_no, currency: 'USD', amount: '10.00' };
    }));
  }
  return orders;
}

async function handLoop(orders: { transaction_id: string; order_no: string; currency: string; amount: string }[]): Promise<number> {
  const bodies: string[] = [];
  for (let i = 0; i < orders.length; i += 50) {
    const record = { ...merchant, capture_orders: orders.slice(i, i + 50) };
    const encryption_data = signer.sign(createSignableMessage({ operation: 'capture', record, body: '' }));
    bodies.push(encodeRequestBody('capture', { ...record, encryption_data }));
  }
  const dispatcher = new Agent({ connections: CONCURRENCY });
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const res = await request(`${url}/v1/capture`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher });
      await res.body.text();
    }
  }));
  const ms = performance.now() - started;
  await dispatcher.close();
  return ms;
}

const dir = mkdtempSync(join(tmpdir(), 'gw-bench-batch-'));
const rows: string[] = [];
const timings: Record<string, number[]> = { hand: [], batch: [], batchJournal: [] };
// A warm-up of every side first (2,000 orders each, not measured), as the client bench does: the JIT, not the
// runner, would otherwise decide the first round.
{
  const [a, b, c] = [await authorise(2_000, 'WH'), await authorise(2_000, 'WB'), await authorise(2_000, 'WJ')];
  await handLoop(a);
  await runBatch({ client, operation: 'capture', orders: b, concurrency: CONCURRENCY, keepOutcomes: false });
  await runBatch({ client, operation: 'capture', orders: c, concurrency: CONCURRENCY, keepOutcomes: false, journal: join(dir, 'warm-up.jsonl') });
}
for (let round = 0; round < 2; round++) {
  const [a, b, c] = [await authorise(ORDERS, `H${round}`), await authorise(ORDERS, `B${round}`), await authorise(ORDERS, `J${round}`)];
  timings.hand!.push(await handLoop(a));
  let started = performance.now();
  const plain = await runBatch({ client, operation: 'capture', orders: b, concurrency: CONCURRENCY, keepOutcomes: false });
  timings.batch!.push(performance.now() - started);
  started = performance.now();
  const journaled = await runBatch({ client, operation: 'capture', orders: c, concurrency: CONCURRENCY, keepOutcomes: false, journal: join(dir, `j${round}.jsonl`) });
  timings.batchJournal!.push(performance.now() - started);
  if (plain.counts.succeeded !== ORDERS || journaled.counts.succeeded !== ORDERS) throw new Error(`not every capture succeeded: ${JSON.stringify([plain.counts, journaled.counts])}`);
}
const best = (xs: number[]) => Math.min(...xs);
rows.push(
  `${ORDERS.toLocaleString('en')} captures, chunks of 50, concurrency ${CONCURRENCY}, sandbox in its own process; best of 2 rounds after a warm-up of every side; node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| runner | ms | orders/s | ratio to hand loop |',
  '|---|---:|---:|---:|',
  `| hand loop: pre-signed bodies, undici | ${best(timings.hand!).toFixed(0)} | ${Math.round((ORDERS * 1000) / best(timings.hand!))} | 1.00x |`,
  `| runBatch, no journal | ${best(timings.batch!).toFixed(0)} | ${Math.round((ORDERS * 1000) / best(timings.batch!))} | **${(best(timings.batch!) / best(timings.hand!)).toFixed(2)}x** |`,
  `| runBatch, journal (fsync per chunk) | ${best(timings.batchJournal!).toFixed(0)} | ${Math.round((ORDERS * 1000) / best(timings.batchJournal!))} | **${(best(timings.batchJournal!) / best(timings.hand!)).toFixed(2)}x** |`,
  '',
  'Goal: at most 1.15x the hand loop. The batch validates every order, signs every request, matches every result to its input and (with a journal) fsyncs twice per chunk; the hand loop only sends pre-built bytes.',
);

// Peak RSS while streaming orders from a file (they name no real order: each is answered "not found", which exercises
// the whole path — chunking, signing, matching, journaling — without 100,000 authorisations first).
const file = join(dir, 'orders.jsonl');
const out = createWriteStream(file);
for (let i = 0; i < STREAMED; i++) if (!out.write(JSON.stringify({ transaction_id: `T-STREAM-${i}`, order_no: `S-${i}`, currency: 'USD', amount: '1.00' }) + '\n')) await once(out, 'drain');
out.end();
await once(out, 'finish');
const rss = spawnSync(process.execPath, ['--conditions=@gw/source', '--expose-gc', join(import.meta.dirname, 'rss-child.ts'), url, file, join(dir, 'rss.jsonl')], { encoding: 'utf8' });
if (rss.status !== 0) throw new Error(rss.stderr);
const m = JSON.parse(rss.stdout.trim().split('\n').at(-1)!) as { base: number; peak: number; growthMb: number; counts: Record<string, number>; seconds: number };
rows.push(
  '',
  `Streaming ${STREAMED.toLocaleString('en')} orders from a JSONL file through runBatch (journal on, \`keepOutcomes: false\`): RSS ${(m.base / 2 ** 20).toFixed(0)} MB at the start, peak ${(m.peak / 2 ** 20).toFixed(0)} MB, growth **${m.growthMb.toFixed(1)} MB** (goal under 100 MB); ${m.seconds.toFixed(1)} s; outcomes ${JSON.stringify(m.counts)}.`,
);
child.kill('SIGTERM');
writeResultsSection('batch', rows.join('\n'));
console.log(rows.join('\n'));
