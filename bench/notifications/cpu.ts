// CPU time per call only (process.cpuUsage in this process): gw verify + parse + de-duplicate (awaited, and through the
// synchronous API) against the hand-written receiver, in alternating batches, as bench.ts measures it, without the
// throughput runs. For profiling and quick checks.
// Run: cd bench && npx -y pnpm@10.34.9 exec node --conditions=@gw/source notifications/cpu.ts [rounds]
import { loadavg } from 'node:os';
import { verifySettings } from '@gw/notifications';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { BENCH_SECRET, cardPaymentNotifications, handWrittenHeaders } from './fixtures.ts';
import { cpuMicrosPerCall, gwSyncVerifyParseDedupe, gwVerifyParseDedupe, handWrittenCheck } from './workloads.ts';

const COUNT = 4096;
const BATCH = 512;
const ROUNDS = Number(process.argv[2] ?? 120);
const notifications = await cardPaymentNotifications(COUNT);
const settings = verifySettings({ verifiers: [createHmacSha256Signer({ secret: BENCH_SECRET })] });
const tasks = {
  gw: gwVerifyParseDedupe(notifications, settings),
  sync: gwSyncVerifyParseDedupe(notifications, settings),
  hand: handWrittenCheck(notifications, handWrittenHeaders(notifications)),
};
// Untimed warm-up: compiled, and the set-up's garbage collected, before anything is measured.
await cpuMicrosPerCall(tasks, 1, 2 * COUNT);
const cpu = await cpuMicrosPerCall(tasks, ROUNDS, BATCH);
console.log(`gw ${cpu.gw.toFixed(2)} µs awaited, ${cpu.sync.toFixed(2)} µs synchronous; hand-written ${cpu.hand.toFixed(2)} µs; ratio ${(cpu.hand / cpu.gw).toFixed(2)}x awaited, ${(cpu.hand / cpu.sync).toFixed(2)}x synchronous; load ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
