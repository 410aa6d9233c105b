import { type Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { authorisedOrders } from './harness.ts';
import { fleetRound } from './fleet/fleet-round.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';

// The long soak: GW_FLEET_ORDERS=20000 GW_FLEET_ROUNDS=10 (20,000 orders x 10 rounds); by default a smaller but real one.
const ORDERS = Number(process.env.GW_FLEET_ORDERS ?? 4000);
const ROUNDS = Number(process.env.GW_FLEET_ROUNDS ?? 2);

let sandbox: Sandbox;
let ledgerUrl: string;
sandboxAndDatabaseForFile((started, url) => {
  sandbox = started;
  ledgerUrl = url;
});

describe(`3 worker processes on one ${ORDERS}-order capture kept in PostgreSQL, one killed with SIGKILL at a random point`, () => {
  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round}: no order captured twice, none lost, every order exactly one outcome`, async () => {
      const orders = await authorisedOrders(sandbox, ORDERS, '7.00');
      const report = await fleetRound({ sandbox, ledger: ledgerUrl, orders, workers: 3, killWithinMs: 30_000 });
      console.log(`fleet round ${round}: ${JSON.stringify(report)}`);
      expect(report.failures).toEqual([]);
      expect(report.killedLive).toBe(true);
      expect(report.capturedTwice).toBe(0);
      expect(report.lost).toBe(0);
      expect(report.outcomes).toBe(ORDERS);
      expect(report.disagreements).toBe(0);
      expect(report.kinds.succeeded).toBe(ORDERS);
      expect(sandbox.state.invariantViolations()).toEqual([]);
    }, 120_000);
  }
});
