// The fleet soak (issue 16): 3 worker processes on one capture batch kept in PostgreSQL, one killed with SIGKILL at a
// random point and replaced by a resuming process, ROUNDS rounds of ORDERS orders against the sandbox. Prints each
// round and the totals; exits 1 on any order captured twice, lost, or without exactly one outcome.
//   cd bench && npx -y pnpm@10.34.9 exec node --conditions=@gw/source batch/fleet-soak.ts [orders] [rounds]
import { startSandbox } from '@gw/sandbox';
import { createDatabase, startCluster } from '@gw/test-postgres';
import { fleetRound } from '../../packages/batch/test/fleet/fleet-round.ts';
import { authorisedOrders } from '../../packages/batch/test/harness.ts';

const ORDERS = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 10);

const cluster = await startCluster();
const sandbox = await startSandbox();
let bad = 0;
try {
  const ledger = await createDatabase(cluster.url, 'fleet');
  const totals = { orders: 0, capturedTwice: 0, lost: 0, disagreements: 0, takenOver: 0, killedLive: 0 };
  for (let round = 1; round <= ROUNDS; round++) {
    const orders = await authorisedOrders(sandbox, ORDERS, '7.00');
    const report = await fleetRound({ sandbox, ledger, orders, workers: 3, killWithinMs: 120_000 });
    const oneEach = report.outcomes === ORDERS && report.lost === 0;
    if (report.capturedTwice > 0 || !oneEach || report.disagreements > 0 || report.failures.length > 0) bad += 1;
    totals.orders += ORDERS;
    totals.capturedTwice += report.capturedTwice;
    totals.lost += report.lost;
    totals.disagreements += report.disagreements;
    totals.takenOver += report.takenOver;
    totals.killedLive += report.killedLive ? 1 : 0;
    console.log(`round ${round}: killed ${report.killedRole} at ${report.killAfterMs} ms (live: ${report.killedLive}), ${report.takenOver} chunk(s) taken over, outcomes ${JSON.stringify(report.kinds)}, captured twice ${report.capturedTwice}, lost ${report.lost}, disagreements ${report.disagreements}, ${(report.durationMs / 1000).toFixed(1)} s${report.failures.length ? `, FAILURES ${report.failures.join(' | ')}` : ''}`);
  }
  console.log(`fleet soak: ${ROUNDS} rounds x ${ORDERS} orders: ${JSON.stringify(totals)}; sandbox invariant violations: ${sandbox.state.invariantViolations().length}`);
  if (sandbox.state.invariantViolations().length > 0) bad += 1;
} finally {
  await sandbox.stop();
  cluster.stop();
}
process.exit(bad > 0 ? 1 : 0);
