// A gateway that throttles (bench.ts's section before the fleet): 10,000 captures against the sandbox in its own
// process, 100 ms away, with a quota of 40 requests a second per merchant account (429 with Retry-After past it), so
// the quota's limit is 200 requests / 40 = 5 s. Each row a way a team runs the batch: one process with a journal at
// concurrency 8; three processes on a ledger at concurrency 8 each, with no limit, with --max-rate 40 and with
// --max-in-flight 4. Counted at the gateway (the sandbox's throttle counts, from its control API): the share of
// requests it throttled, the most in flight at once, and each order captured once; the time from the batch's first
// request to its last answer (each process's start-up aside), over the quota's limit. Run alone (after a build):
// `node --conditions=@gw/source batch/quota.ts`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { newBatchId } from '@gw/batch';
import { createClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox/client';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { createDatabase, startCluster } from '@gw/test-postgres';
import { authoriseOrders, type AuthorisingClient } from '@gw/test-support';
import { median } from '../results.ts';
import { setCaptureLatency, startSandboxProcess } from '../sandbox/sandbox-process.ts';
import { bundleChild, start, type ChildReport } from './fleet.ts';

const ORDERS = Number(process.env.GW_BENCH_QUOTA_ORDERS ?? 10_000);
const ROUNDS = Number(process.env.GW_BENCH_QUOTA_ROUNDS ?? 3);
const QUOTA = 40;
const LATENCY_MS = 100;
const CONCURRENCY = 8;

/** One way of running the batch: how many processes, the store, the limit flags; and its goals. */
interface QuotaRow {
  readonly name: string;
  readonly processes: number;
  readonly journal: boolean;
  readonly env: Record<string, string>;
  readonly goal: string;
}

const ROWS: readonly QuotaRow[] = [
  { name: 'one process, journal, concurrency 8, no limit flags', processes: 1, journal: true, env: {}, goal: 'throttled ≤ 10%, time ≤ 1.3x' },
  { name: 'three processes, ledger, concurrency 8 each, no limit flags', processes: 3, journal: false, env: {}, goal: 'throttled ≤ 10%, time ≤ 1.3x' },
  { name: 'three processes, ledger, `--max-rate 40`', processes: 3, journal: false, env: { MAX_RATE: String(QUOTA) }, goal: 'throttled ≤ 2%, time ≤ 1.15x' },
  {
    name: 'three processes, ledger, `--max-in-flight 4`',
    processes: 3,
    journal: false,
    env: { MAX_IN_FLIGHT: '4' },
    goal: 'in flight never above 4; ≥ 0.9x of 4 per 100 ms',
  },
];

/** What the gateway counted (the sandbox's control API). */
interface GatewayCounts {
  readonly accepted: number;
  readonly throttled: number;
  readonly accounts: readonly { readonly maxInFlight: number }[];
}

async function control(url: string, method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await request(`${url}/sandbox/api/${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const answer = (await res.body.json()) as Record<string, unknown>;
  if (res.statusCode !== 200) throw new Error(`sandbox control ${method} ${path}: ${res.statusCode} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * One round of a row: its time (first request to last answer, ms), the gateway's counts, and the batch's orders that
 * did not succeed once: the sandbox captures an order once at most and refuses a second capture, so an order sent
 * twice ends `failed`, and one left in doubt `unknown`.
 */
interface Measured {
  readonly ms: number;
  readonly counts: GatewayCounts;
  readonly failed: number;
  readonly unknown: number;
}

async function runRow(
  url: string,
  ledgerUrl: string,
  child: string,
  dir: string,
  row: QuotaRow,
  round: number,
  authorise: (count: number, prefix: string) => Promise<{ transaction_id: string }[]>,
): Promise<Measured> {
  await control(url, 'PUT', 'throttle', { throttle: null });
  await setCaptureLatency(url, 0);
  const orders = await authorise(ORDERS, `Q${round}-${row.processes}-${Object.keys(row.env).join('')}${row.journal ? 'j' : ''}`);
  const file = join(dir, `quota-${round}-${ROWS.indexOf(row)}.jsonl`);
  writeFileSync(file, orders.map((o) => `${JSON.stringify(o)}\n`).join(''));
  await control(url, 'PUT', 'throttle', { ratePerSecond: QUOTA });
  await control(url, 'POST', 'throttle/stats/reset');
  await setCaptureLatency(url, LATENCY_MS);
  const env = {
    SANDBOX_URL: url,
    LEDGER: ledgerUrl,
    BATCH: newBatchId(),
    ORDERS: file,
    CONCURRENCY: String(CONCURRENCY),
    ...row.env,
    ...(row.journal ? { JOURNAL: join(dir, `j-${round}.jsonl`) } : {}),
  };
  const children = [start(child, { ...env, ROLE: 'run' })];
  for (let i = 1; i < row.processes; i++) children.push(start(child, { ...env, ROLE: 'worker' }));
  const exits = await Promise.all(children.map((c) => c.exited));
  for (const e of exits) if (e.code !== 0) throw new Error(`a process exited ${e.code}: ${e.stderr.slice(0, 500)}`);
  const reports = exits.map((e) => JSON.parse(e.stdout) as ChildReport);
  const requests = reports.flatMap((r) => r.requests);
  const ms = Math.max(...requests.map(([, end]) => end)) - Math.min(...requests.map(([begin]) => begin));
  const counts = (await control(url, 'GET', 'throttle/stats')).stats as GatewayCounts;
  const outcomes = reports[0]!.counts;
  return { ms, counts, failed: outcomes.failed ?? 0, unknown: outcomes.unknown ?? 0 };
}

/** The quota section of the batch bench, as markdown lines. */
export async function quotaSection(): Promise<string[]> {
  const { child: sandbox, url } = await startSandboxProcess();
  const cluster = await startCluster();
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  const setup = createClient({
    baseUrl: url,
    merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
    accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
    signer,
    verifier: signer,
  }) as unknown as AuthorisingClient;
  const authorise = (count: number, prefix: string) => authoriseOrders(setup, count, { prefix });
  const dir = mkdtempSync(join(tmpdir(), 'gw-quota-'));
  try {
    const ledgerUrl = await createDatabase(cluster.url, 'quota');
    const child = await bundleChild(dir);
    const limitMs = (ORDERS / 50 / QUOTA) * 1000;
    const lines: string[] = [];
    for (const row of ROWS) {
      const rounds: Measured[] = [];
      for (let round = 0; round < ROUNDS; round++) rounds.push(await runRow(url, ledgerUrl, child, dir, row, round, authorise));
      const share = rounds.map((r) => r.counts.throttled / (r.counts.accepted + r.counts.throttled));
      const inFlight = Math.max(...rounds.map((r) => r.counts.accounts[0]!.maxInFlight));
      const time = median(rounds.map((r) => r.ms));
      const perHundred = row.env.MAX_IN_FLIGHT
        ? ` (${(ORDERS / 50 / (time / LATENCY_MS)).toFixed(2)} per 100 ms, ${(ORDERS / 50 / (time / LATENCY_MS) / 4).toFixed(2)}x of 4)`
        : '';
      const sum = (pick: (r: Measured) => number) => rounds.reduce((n, r) => n + pick(r), 0);
      lines.push(
        `| ${row.name} | ${(median(share) * 100).toFixed(1)}% (${share.map((s) => `${(s * 100).toFixed(1)}%`).join(', ')}) | ${inFlight} | **${(time / limitMs).toFixed(2)}x** (${(time / 1000).toFixed(2)} s)${perHundred} | ${sum((r) => r.failed)} / ${sum((r) => r.unknown)} | ${row.goal} |`,
      );
      console.log(lines.at(-1));
    }
    return [
      `**A gateway that throttles.** ${ORDERS.toLocaleString('en')} captures against the sandbox in its own process, ${LATENCY_MS} ms away, with a quota of ${QUOTA} requests a second per merchant account (429 with \`Retry-After\` past it): the quota's limit is ${ORDERS / 50} requests / ${QUOTA} = ${limitMs / 1000} s. Counted at the gateway (the sandbox's throttle counts): the share it throttled (median of ${ROUNDS} rounds, and each round's), the most requests in flight at once; the time from the batch's first request to its last answer (each process's start-up aside), median of the rounds over the quota's limit; orders sent twice (the sandbox refuses a second capture, so such an order ends failed) and left unknown, in all rounds. Without a limit flag the batch knows nothing of the quota and finds it by meeting it: the throttles are those of its first burst (a fleet's 24 requests at once, then 24 more while the gateway's first second has room for 16), after which its pace is 95% of what the gateway let through, summed over the workers.`,
      '',
      "| run | throttled | most in flight at the gateway | time over the quota's limit | sent twice / unknown | goal |",
      '|---|---:|---:|---:|---:|---|',
      ...lines,
    ];
  } finally {
    sandbox.kill('SIGTERM');
    cluster.stop();
  }
}

if (import.meta.main) {
  console.log((await quotaSection()).join('\n'));
  process.exit(0);
}
