// One process of bench/batch/fleet.ts, as a team runs it: the built packages (dist), not their sources, bundled into
// one file by fleet.ts as the gw CLI is (packages/cli/scripts/bundle.ts), so a process starts as `gw batch` does. ROLE
// 'run' starts the batch (intake and work), 'worker' joins it. Prints what this process did as JSON, with when it
// sent its first request and when its last answer came (ms since it started). `pnpm bench` builds first.
import { readFileSync } from 'node:fs';
import { createClient } from '@gw/client';
import { runBatch, runBatchWorker, type BatchClient, type LedgerBatchResult } from '@gw/batch';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, sandboxReconciler } from '@gw/sandbox/client';
import { createHmacSha256Signer } from '@gw/signer-interface';

const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;
const { SANDBOX_URL, LEDGER, BATCH, ROLE, ORDERS, CONCURRENCY } = process.env;
// Since this process started (performance's time origin): how long Node took to load gw, and the CPU time that took.
const started = performance.now();
const loadCpu = process.cpuUsage();
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const gateway = createClient({ baseUrl: SANDBOX_URL!, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer, verifier: signer }) as unknown as BatchClient;
const sent = { first: 0, last: 0 };
const client: BatchClient = {
  ...gateway,
  capture: async (...args: Parameters<BatchClient['capture']>) => {
    sent.first ||= performance.now();
    try {
      return await gateway.capture(...args);
    } finally {
      sent.last = performance.now();
    }
  },
};
// The library's defaults for leases, timeouts and polling.
const settings = { client, ledger: LEDGER!, batch: BATCH!, concurrency: Number(CONCURRENCY), reconcile: sandboxReconciler, keepOutcomes: false };
const result: LedgerBatchResult =
  ROLE === 'run'
    ? await runBatch({ ...settings, operation: 'capture', orders: JSON.parse(readFileSync(ORDERS!, 'utf8')) as Record<string, string>[] })
    : await runBatchWorker(settings);
process.stdout.write(JSON.stringify({ role: ROLE, counts: result.counts, worker: result.worker, roundTrips: result.roundTrips, durationMs: result.durationMs, loadMs: started, startedAt: performance.timeOrigin + started, cpuMs: cpuMs(process.cpuUsage()), loadCpuMs: cpuMs(loadCpu), firstSentMs: sent.first, lastAnsweredMs: sent.last }));
process.exit(0);
