// A/B of a change: runBatch's CPU per request (journal on, O_DSYNC) with this checkout's @gw/batch, @gw/client and
// @gw/signer-interface against another checkout's (GW_BASE: e.g. `git worktree add --detach ../base HEAD~3`, then
// `pnpm install --frozen-lockfile --prefer-offline` there), in one process: the sides alternate round by round over
// disjoint slices of one pool of authorised orders, against one sandbox in its own process (this checkout's). The
// paired ratio per round moves far less with a shared machine's load than two separate runs would.
//   GW_BASE=/path node --conditions=@gw/source batch/ab-cpu.ts [ordersPerRun=2000] [rounds=12] [journal=1]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { authoriseOrders, type AuthorisingClient } from './authorise-orders.ts';
import { startSandboxProcess } from '../sandbox/sandbox-process.ts';
import { processCpuMicros } from './process-cpu.ts';
import { median } from '../median.ts';

const PER_RUN = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 12);
const JOURNAL = (process.argv[4] ?? '1') === '1';
const base = process.env.GW_BASE;
if (!base) throw new Error('GW_BASE must name the other checkout (see the comment at the top of batch/ab-cpu.ts)');
const here = new URL('../../', import.meta.url).pathname;
const sides = await Promise.all(
  [['base', base], ['new', here]].map(async ([name, root]) => {
    const batch = await import(join(root!, 'packages/batch/src/index.ts'));
    const client = await import(join(root!, 'packages/client/src/index.ts'));
    const signer = await import(join(root!, 'packages/signer-interface/src/index.ts'));
    return { name: name!, batch, client, signer };
  }),
);
const { child, port } = await startSandboxProcess();
const options = { baseUrl: `http://127.0.0.1:${port}`, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId };
const setupSigner = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const setup = sides[1]!.client.createClient({ ...options, signer: setupSigner, verifier: setupSigner }) as AuthorisingClient;
const clients = sides.map((s) => {
  const signer = s.signer.createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  return s.client.createClient({ ...options, signer, verifier: signer });
});
const dir = mkdtempSync(join(tmpdir(), 'gw-ab-cpu-'));
const pool = await authoriseOrders(setup, PER_RUN * 2 * (ROUNDS + 1), 'AB');
let next = 0;
const take = () => pool.slice(next, (next += PER_RUN));
const requests = Math.ceil(PER_RUN / 50);
const figures: number[][] = [[], []];
const sandboxFigures: number[][] = [[], []];
for (let round = 0; round <= ROUNDS; round++) {
  const order = round % 2 === 0 ? [0, 1] : [1, 0];
  for (const i of order) {
    const orders = take();
    const sandbox = processCpuMicros(child.pid);
    const cpu = process.cpuUsage();
    const result = await sides[i]!.batch.runBatch({ client: clients[i], operation: 'capture', orders, concurrency: 8, keepOutcomes: false, ...(JOURNAL ? { journal: join(dir, `${round}-${i}.jsonl`) } : {}) });
    const used = process.cpuUsage(cpu);
    if (result.counts.succeeded !== PER_RUN) throw new Error(JSON.stringify(result.counts));
    if (round === 0) continue; // warm-up
    figures[i]!.push((used.user + used.system) / requests);
    sandboxFigures[i]!.push((processCpuMicros(child.pid) - sandbox) / requests);
  }
}
const ratios = figures[1]!.map((x, k) => x / figures[0]![k]!);
for (const i of [0, 1]) console.log(`${sides[i]!.name}: runner CPU per request median ${median(figures[i]!).toFixed(0)} µs (least ${Math.min(...figures[i]!).toFixed(0)}), sandbox ${median(sandboxFigures[i]!).toFixed(0)} µs`);
console.log(`new / base per round: median ${median(ratios).toFixed(3)} [${ratios.map((r) => r.toFixed(2)).join(', ')}]`);
child.kill();
process.exit(0);
