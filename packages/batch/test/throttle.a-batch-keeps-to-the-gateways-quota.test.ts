// A gateway with a quota (the sandbox's: 40 requests a second per merchant account, 429 with Retry-After past it, 100
// ms away), and batches of captures against it: one process with a journal, three processes on a ledger, each with
// no limit, with --max-rate and with --max-in-flight. Counted at the gateway: how many requests it throttled, how
// long the batch took from its first request to its last, the most in flight at once; and every order captured once,
// none unknown. The bounds are loose (the bench holds the tight ones); a throttle asking 2 s pauses every worker.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sandboxReconciler, type Sandbox } from '@gw/sandbox';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { newBatchId, runBatch } from '../src/index.ts';
import { start, type Child } from './fleet/fleet-round.ts';
import { authorisedOrders, clientFor } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';

const ORDERS = 4_000; // 80 requests of 50
const QUOTA = 40;
const LATENCY_MS = 100;
/** The quota's limit: 80 requests at 40 a second. */
const QUOTA_SECONDS = ORDERS / 50 / QUOTA;

let sandbox: Sandbox;
let ledger: string;
sandboxAndDatabaseForFile((started, url) => {
  sandbox = started;
  ledger = url;
});

type Orders = Awaited<ReturnType<typeof authorisedOrders>>;

/** Orders authorised with no quota, then the gateway set to throttle at the quota, 100 ms away, its counts from zero. */
async function ordersBehindTheQuota(count = ORDERS): Promise<Orders> {
  sandbox.throttle.set(null);
  sandbox.faults.setRules({});
  const orders = await authorisedOrders(sandbox, count, '12.00');
  sandbox.throttle.set({ ratePerSecond: QUOTA });
  sandbox.throttle.resetStats();
  sandbox.faults.setRules({ '/v1/capture': { latencyMs: LATENCY_MS } });
  return orders;
}

/** What the gateway saw of the captures: throttled share, first request to last, most in flight at once; orders captured other than once. */
function atTheGateway(orders: Orders, since: number) {
  const captures = sandbox.state.requests.filter((r) => r.path === '/v1/capture' && r.receivedAt.getTime() >= since);
  const stats = sandbox.throttle.stats();
  const applied = sandbox.state.appliedCounts('capture');
  return {
    requests: captures.length,
    throttledShare: stats.throttled / (stats.accepted + stats.throttled),
    // From the first request's arrival to the last answer.
    seconds: (Math.max(...captures.map((r) => r.at.getTime())) - Math.min(...captures.map((r) => r.receivedAt.getTime()))) / 1000,
    maxInFlight: stats.accounts[0]!.maxInFlight,
    // Requests that reached it in each wall-clock second, throttled or not (its quota caps only those it accepts).
    mostInASecond: Math.max(...stats.perSecond.map((s) => s.accepted + s.throttled)),
    notOnce: orders.filter((o) => applied.get(o.transaction_id) !== 1).length,
  };
}

/** The most of `times` (ms, ascending) in any window of 1000 ms. */
function mostInAnySecond(times: readonly number[]): number {
  let most = 0;
  for (let first = 0, last = 0; last < times.length; last++) {
    while (times[last]! - times[first]! >= 1000) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** What a process of the fleet printed: its counts, the batch's throttles, its worker's figures, when it wrote each request. */
interface ProcessReport {
  readonly counts: Record<string, number>;
  readonly throttled: number;
  readonly worker: { readonly holder: string; readonly slotsMissed: number };
  readonly writes: number[];
  /** When its send guard refused a request whose slot of the rate had gone by (handed back, never written). */
  readonly slotsRefused: number[];
}

/**
 * Three processes on one ledger batch (the coordinator and two workers), concurrency 8 each, with `env` added;
 * `meanwhile` runs once they are started, with them and the batch's id. Each request may take 15 s: a gateway 100 ms
 * away never needs it; the room is for a machine starved of CPU, where a request given up early would still be in
 * flight at the gateway when its permit went to the next one.
 */
async function fleet(
  orders: Orders,
  env: Record<string, string> = {},
  meanwhile?: (children: Child[], batch: string) => Promise<void>,
): Promise<ProcessReport[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-quota-'));
  const file = join(dir, 'orders.json');
  writeFileSync(file, JSON.stringify(orders));
  const common = {
    SANDBOX_URL: sandbox.url,
    LEDGER: ledger,
    BATCH: newBatchId(),
    ORDERS: file,
    CONCURRENCY: '8',
    LEASE_MS: '60000',
    TIMEOUT_MS: '15000',
    SEND_MARGIN_MS: '1000',
    ...env,
  };
  const children = [start({ ...common, ROLE: 'run' }), start({ ...common, ROLE: 'worker', HOLDER: 'w1' }), start({ ...common, ROLE: 'worker', HOLDER: 'w2' })];
  await meanwhile?.(children, common.BATCH);
  const ended = await Promise.all(children.map((c) => c.exited));
  for (const end of ended) expect(end.code, end.stderr || end.stdout).toBe(0);
  return ended.map((e) => JSON.parse(e.stdout) as ProcessReport);
}

describe('a batch against a gateway that throttles at 40 requests a second', () => {
  it("one process, journal, concurrency 8, no limit: a few throttled, close to the quota's pace, each order captured once, none unknown", async () => {
    const orders = await ordersBehindTheQuota();
    const since = Date.now();
    const result = await runBatch({
      client: clientFor(sandbox),
      operation: 'capture',
      orders,
      concurrency: 8,
      journal: join(mkdtempSync(join(tmpdir(), 'gw-quota-j-')), 'j.jsonl'),
      reconcile: sandboxReconciler,
      keepOutcomes: false,
    });
    const seen = atTheGateway(orders, since);
    expect(result.counts).toEqual({ succeeded: ORDERS, failed: 0, rejected: 0, unknown: 0 });
    expect(result.throttled).toBe(sandbox.throttle.stats().throttled);
    expect(seen.throttledShare).toBeLessThanOrEqual(0.2);
    expect(seen.seconds).toBeLessThanOrEqual(QUOTA_SECONDS * 2);
    expect(seen.notOnce).toBe(0);
  });

  it('three processes, ledger, no limit: a few throttled, each order captured once, none unknown', async () => {
    const orders = await ordersBehindTheQuota();
    const since = Date.now();
    const results = await fleet(orders);
    const seen = atTheGateway(orders, since);
    for (const r of results) expect(r.counts).toEqual({ succeeded: ORDERS, failed: 0, rejected: 0, unknown: 0 });
    // The ledger counts every worker's throttles: each process reports the batch's.
    expect(results[0]!.throttled).toBe(sandbox.throttle.stats().throttled);
    expect(seen.throttledShare).toBeLessThanOrEqual(0.2);
    expect(seen.seconds).toBeLessThanOrEqual(QUOTA_SECONDS * 2.2);
    expect(seen.notOnce).toBe(0);
  });

  it('three processes, ledger, --max-rate 40: the fleet never writes more than 40 requests in any second, the gateway hardly throttles, close to its pace', async () => {
    const orders = await ordersBehindTheQuota();
    const since = Date.now();
    const processes = await fleet(orders, { MAX_RATE: String(QUOTA) });
    const seen = atTheGateway(orders, since);
    // Every process's writes together (each when its send guard let the request out), in every sliding second, and the
    // requests reaching the gateway in each of its seconds.
    const writes = processes.flatMap((p) => p.writes).sort((a, b) => a - b);
    expect(writes).toHaveLength(seen.requests);
    expect(mostInAnySecond(writes)).toBeLessThanOrEqual(QUOTA);
    expect(seen.mostInASecond).toBeLessThanOrEqual(QUOTA);
    expect(seen.throttledShare).toBeLessThanOrEqual(0.02);
    // Not slowed needlessly (a pacer that serialised or paused would take several times this); how close to the quota's
    // pace it runs is the bench's figure (bench/batch, 1.06x), as timing on a loaded shared machine is not a test's.
    expect(seen.seconds).toBeLessThanOrEqual(QUOTA_SECONDS * 2);
    expect(seen.notOnce).toBe(0);
  });

  it('--max-rate 40, a worker stopped for 400 ms mid-batch: it sends none of the slots it missed, it hands them back, and the fleet still writes at most 40 in any second', async () => {
    const orders = await ordersBehindTheQuota();
    const since = Date.now();
    const processes = await fleet(orders, { MAX_RATE: String(QUOTA) }, async ([, w1], batch) => {
      // Once w1 holds two or more chunks whose slots are 150-325 ms off, it stops for 400 ms, past those slots by at
      // least 75 ms (as a process paused by its host, or by a long garbage collection, would), then goes on.
      const db = new pg.Client({ connectionString: ledger });
      await db.connect();
      try {
        // The ledger's tables are made by the fleet's first process: until then, nothing is held.
        const slotsAhead = async () =>
          (
            await db
              .query<{ n: number }>(
                "SELECT count(*)::int AS n FROM gw_batch_chunk WHERE batch_id = $1 AND holder = 'w1' AND state = 'leased' AND lease_rate_slot AND lease_send_at BETWEEN clock_timestamp() + interval '150 milliseconds' AND clock_timestamp() + interval '325 milliseconds'",
                [batch],
              )
              .catch((error: { code?: string }) => {
                if (error.code === '42P01') return { rows: [{ n: 0 }] };
                throw error;
              })
          ).rows[0]!.n;
        while ((await slotsAhead()) < 2) await sleep(2);
      } finally {
        await db.end();
      }
      w1!.process.kill('SIGSTOP');
      await sleep(400); // time passing is the point: the slots w1 holds go by while it is stopped
      w1!.process.kill('SIGCONT');
    });
    const seen = atTheGateway(orders, since);
    const writes = processes.flatMap((p) => p.writes).sort((a, b) => a - b);
    // w1's guard refused the slots it missed at the write (handed back, sent later on new slots).
    expect(processes[1]!.slotsRefused.length).toBeGreaterThan(0);
    expect(mostInAnySecond(writes)).toBeLessThanOrEqual(QUOTA);
    expect(seen.mostInASecond).toBeLessThanOrEqual(QUOTA);
    expect(seen.notOnce).toBe(0);
    for (const p of processes) expect(p.counts).toEqual({ succeeded: ORDERS, failed: 0, rejected: 0, unknown: 0 });
  });

  it('three processes, ledger, --max-in-flight 4: never more than 4 in flight at the gateway, nearly 4 every 100 ms', async () => {
    const orders = await ordersBehindTheQuota();
    sandbox.throttle.set({ maxInFlight: 4 }); // counts in flight, and refuses a fifth
    sandbox.throttle.resetStats();
    const since = Date.now();
    await fleet(orders, { MAX_IN_FLIGHT: '4' });
    const seen = atTheGateway(orders, since);
    expect(seen.maxInFlight).toBeLessThanOrEqual(4);
    expect(sandbox.throttle.stats().throttled).toBe(0);
    // 80 requests, 4 at a time, 100 ms each: 2 s at best; twice that would mean permits left unused (the bench holds
    // the close figure: 0.95x of 4 in flight per 100 ms).
    expect(seen.seconds).toBeLessThanOrEqual((ORDERS / 50 / 4) * (LATENCY_MS / 1000) * 2);
    expect(seen.notOnce).toBe(0);
  });

  it('a throttle asking 2 s pauses every worker of the fleet: no request reaches the gateway from any of them for 2 s', async () => {
    const orders = await ordersBehindTheQuota(3_000);
    sandbox.throttle.set(null);
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: LATENCY_MS, retryAfterSeconds: 2 } });
    const since = Date.now();
    const running = fleet(orders);
    // Once the fleet is under way, one request is answered 429, Retry-After: 2.
    while (sandbox.state.requests.filter((r) => r.path === '/v1/capture' && r.at.getTime() >= since).length < 20) await sleep(2);
    sandbox.faults.inject('/v1/capture', 'http-429');
    await running;
    const arrived = (r: (typeof sandbox.state.requests)[number]) => r.receivedAt.getTime();
    const captures = sandbox.state.requests.filter((r) => r.path === '/v1/capture' && arrived(r) >= since);
    const throttledAt = arrived(captures.find((r) => r.throttled)!);
    // Requests the other workers sent before the pause reached them (the ledger's notification, milliseconds on a quiet
    // machine, 150-210 ms seen on one loaded by other work) land at once; then none, from any worker, until its 2 s end.
    // Without the pause the fleet's 24 slots, 100 ms a request, would land hundreds in those 2 s.
    const during = captures.filter((r) => arrived(r) > throttledAt + 300 && arrived(r) < throttledAt + 2_000);
    expect(during.map((r) => arrived(r) - throttledAt)).toEqual([]);
    expect(captures.some((r) => arrived(r) >= throttledAt + 2_000)).toBe(true);
    expect(atTheGateway(orders, since).notOnce).toBe(0);
  });
});
