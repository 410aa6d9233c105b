// One process of bench/batch/fleet.ts, as a team runs it: the built packages (dist), not their sources, bundled into
// one file by fleet.ts as the gw CLI is (packages/cli/scripts/bundle.ts), so a process starts as `gw batch` does. ROLE
// 'run' starts the batch (intake and work, its orders read from a JSONL file as `gw batch capture --ledger … orders.jsonl`
// reads them), 'worker' joins it; with JOURNAL, 'run' keeps the batch in that journal instead (quota.ts's one process).
// MAX_RATE and MAX_IN_FLIGHT set the batch's limits. Prints what this process did as JSON, with when each of its
// requests started and ended. `pnpm bench` builds first.
import { createClient } from '@gw/client';
import { ordersFromJsonl, runBatch, runBatchWorker, type BatchClient, type BatchResult, type LedgerBatchResult } from '@gw/batch';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, sandboxReconciler } from '@gw/sandbox/client';
import { createHmacSha256Signer } from '@gw/signer-interface';

const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;
const { SANDBOX_URL, LEDGER, BATCH, ROLE, ORDERS, CONCURRENCY, JOURNAL, MAX_RATE, MAX_IN_FLIGHT } = process.env;
// Since this process started (performance's time origin): how long Node took to load gw, and the CPU time that took.
const started = performance.now();
const loadCpu = process.cpuUsage();
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const gateway = createClient({
  baseUrl: SANDBOX_URL!,
  merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
  accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
  signer,
  verifier: signer,
}) as unknown as BatchClient;
// Each request's start and end (ms, on the machine's clock: performance.timeOrigin + now), in the order they started.
const requests: [number, number][] = [];
// A wrapper that hands each call its options on (the batch's guard), as a wrapper must.
const capture = gateway.capture as (request: unknown, call: unknown) => Promise<unknown>;
const client: BatchClient = {
  ...gateway,
  capture: (async (request: unknown, call: unknown) => {
    const span: [number, number] = [performance.timeOrigin + performance.now(), 0];
    requests.push(span);
    try {
      return await capture.call(gateway, request, call);
    } finally {
      span[1] = performance.timeOrigin + performance.now();
    }
  }) as BatchClient['capture'],
};
// The library's defaults for leases, timeouts and polling.
const limits = { ...(MAX_RATE ? { maxRate: Number(MAX_RATE) } : {}), ...(MAX_IN_FLIGHT ? { maxInFlight: Number(MAX_IN_FLIGHT) } : {}) };
const settings = { client, ledger: LEDGER!, batch: BATCH!, concurrency: Number(CONCURRENCY), reconcile: sandboxReconciler, keepOutcomes: false, ...limits };
const result: BatchResult & Partial<LedgerBatchResult> = JOURNAL
  ? await runBatch({
      client,
      journal: JOURNAL,
      concurrency: Number(CONCURRENCY),
      reconcile: sandboxReconciler,
      keepOutcomes: false,
      ...limits,
      operation: 'capture',
      orders: ordersFromJsonl(ORDERS!),
    })
  : ROLE === 'run'
    ? await runBatch({ ...settings, operation: 'capture', orders: ordersFromJsonl(ORDERS!) })
    : await runBatchWorker(settings);
process.stdout.write(
  JSON.stringify({
    role: ROLE,
    counts: result.counts,
    throttled: result.throttled,
    worker: result.worker ?? { chunks: 0, takenOver: 0 },
    roundTrips: result.roundTrips ?? 0,
    durationMs: result.durationMs,
    loadMs: started,
    startedAt: performance.timeOrigin + started,
    cpuMs: cpuMs(process.cpuUsage()),
    loadCpuMs: cpuMs(loadCpu),
    requests,
  }),
);
process.exit(0);
