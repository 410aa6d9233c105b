// One runBatch of ORDERS captures (journal on, or off with GW_NO_JOURNAL=1) against the sandbox in its own process,
// under `node --cpu-prof` (GW_PLAIN_JOURNAL=1: the file opened without O_DSYNC, a datasync after each write): prints the window (µs, the profile's clock) of the measured run and its CPU, writes and
// syncs, so a profile reader can count only the samples of the batch (not of the authorising before it).
//   node --conditions=@gw/source --cpu-prof --cpu-prof-dir=DIR batch/profile-journal.ts [orders=20000]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@gw/client';
import { open } from 'node:fs/promises';
import { openSyncedJournalFile, runBatch, type BatchClient, type JournalFile, type SyncedJournalFile } from '@gw/batch';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { authoriseOrders, type AuthorisingClient } from './authorise-orders.ts';
import { startSandboxProcess } from '../sandbox/sandbox-process.ts';

const ORDERS = Number(process.argv[2] ?? 20_000);
const journaled = process.env.GW_NO_JOURNAL !== '1';
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const { port } = await startSandboxProcess();
const options = { baseUrl: `http://127.0.0.1:${port}`, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer, verifier: signer };
const client = createClient(options) as unknown as BatchClient;
const setup = createClient(options) as unknown as AuthorisingClient;
const dir = mkdtempSync(join(tmpdir(), 'gw-profile-journal-'));
const counts = { writes: 0, syncs: 0 };
/** The journal's file, counting writes and syncs; GW_PLAIN_JOURNAL=1: opened with 'a', a datasync after each write (as before O_DSYNC). */
const journalFile = async (path: string): Promise<JournalFile | SyncedJournalFile> => {
  const file = process.env.GW_PLAIN_JOURNAL === '1' ? await open(path, 'a') : await openSyncedJournalFile(path);
  return { write: ((...a: Parameters<typeof file.write>) => (counts.writes++, file.write(...a))) as typeof file.write, datasync: () => (counts.syncs++, file.datasync()), close: () => file.close(), ...('syncedWrites' in file ? { syncedWrites: true as const } : {}) };
};
const batch = (orders: Awaited<ReturnType<typeof authoriseOrders>>, name: string) =>
  runBatch({ client, operation: 'capture', orders, concurrency: 8, keepOutcomes: false, ...(journaled ? { journal: join(dir, name), journalFile } : {}) });
await batch(await authoriseOrders(setup, 2000, 'PW'), 'warm.jsonl');
const orders = await authoriseOrders(setup, ORDERS, 'PM');
counts.writes = counts.syncs = 0;
const from = process.hrtime.bigint() / 1000n;
const cpu = process.cpuUsage();
const result = await batch(orders, 'measured.jsonl');
const own = process.cpuUsage(cpu);
const to = process.hrtime.bigint() / 1000n;
if (result.counts.succeeded !== ORDERS) throw new Error(JSON.stringify(result.counts));
const requests = Math.ceil(ORDERS / 50);
console.log(JSON.stringify({ window: [Number(from), Number(to)], requests, cpuPerRequest: (own.user + own.system) / requests, systemPerRequest: own.system / requests, writes: counts.writes, syncs: counts.syncs, ms: Number(to - from) / 1000 }));
process.exit(0);
