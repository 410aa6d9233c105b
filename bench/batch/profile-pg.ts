// One runBatch of ORDERS captures on the PostgreSQL ledger (one worker, concurrency 8) against the sandbox in its own
// process, under `node --cpu-prof`: prints the window (µs, the profile's clock) of the measured run, this process's CPU
// per request of 50, PostgreSQL's (its processes from /proc) and the round trips per chunk, so a profile reader counts
// only the samples of the batch (not of the authorising before it). GW_NO_JOURNAL=1: the same run with no ledger.
//   cd bench && npx -y pnpm@10.34.9 exec node --conditions=@gw/source --cpu-prof --cpu-prof-dir=/tmp/prof-pg batch/profile-pg.ts [orders=20000]
import { createClient } from '@gw/client';
import { runBatch, type BatchClient } from '@gw/batch';
// The ledger's store itself (internal to @gw/batch).
import { PgLedger } from '../../packages/batch/src/postgres/pg-ledger.ts';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { createDatabase, startCluster } from '@gw/test-postgres';
import { authoriseOrders, type AuthorisingClient } from './authorise-orders.ts';
import { postgresCpuMicros, postgresCpuSince } from './postgres-cpu.ts';
import { startSandboxProcess } from '../sandbox/sandbox-process.ts';

const ORDERS = Number(process.argv[2] ?? 20_000);
const withLedger = process.env.GW_NO_JOURNAL !== '1';
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const { port } = await startSandboxProcess();
const cluster = await startCluster();
// The sandbox process is stopped at exit by startSandboxProcess; the cluster here.
process.on('exit', () => cluster.stop());
const url = await createDatabase(cluster.url, 'profile');
// GW_LEDGER_POOL=1: every batch on one pool of this process's (connections opened and statements prepared once), as a
// service running batch after batch would have; by default each batch opens its own, as the CLI and the bench do.
const ledger = process.env.GW_LEDGER_POOL === '1' ? (await PgLedger.open(url, { maxConnections: 12 })).pool : url;
const clusterPort = new URL(cluster.url).port;
const options = { baseUrl: `http://127.0.0.1:${port}`, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer, verifier: signer };
const client = createClient(options) as unknown as BatchClient;
const setup = createClient(options) as unknown as AuthorisingClient;
const batch = (orders: Awaited<ReturnType<typeof authoriseOrders>>, name: string) =>
  withLedger ? runBatch({ client, operation: 'capture', orders, concurrency: 8, keepOutcomes: false, ledger, batch: name }) : runBatch({ client, operation: 'capture', orders, concurrency: 8, keepOutcomes: false });
await batch(await authoriseOrders(setup, 2000, 'PW'), 'warm');
const orders = await authoriseOrders(setup, ORDERS, 'PM');
// Sessions the measured batch opened (pg_stat_database.sessions, read on a connection of this script's own).
const observer = await PgLedger.open(url, { maxConnections: 1 });
const sessions = async (): Promise<number> => Number((await observer.pool.query<{ n: string }>('SELECT sessions AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0]!.n);
const sessionsBefore = await sessions();
const postgresBefore = postgresCpuMicros(clusterPort);
const from = process.hrtime.bigint() / 1000n;
const cpu = process.cpuUsage();
const result = await batch(orders, 'measured');
const own = process.cpuUsage(cpu);
const to = process.hrtime.bigint() / 1000n;
const postgres = postgresCpuSince(clusterPort, postgresBefore);
const opened = (await sessions()) - sessionsBefore;
if (result.counts.succeeded !== ORDERS) throw new Error(JSON.stringify(result.counts));
const requests = Math.ceil(ORDERS / 50);
const roundTrips = 'roundTrips' in result ? (result.roundTrips as number) : 0;
console.log(JSON.stringify({ window: [Number(from), Number(to)], requests, cpuPerRequest: Math.round((own.user + own.system) / requests), systemPerRequest: Math.round(own.system / requests), postgresPerRequest: Math.round(postgres.total / requests), postgresRoles: postgres.roles.map(([r, us]) => [r, Math.round(us / requests)]), roundTripsPerChunk: roundTrips / requests, sessions: opened, ms: Number(to - from) / 1000 }));
process.exit(0);
