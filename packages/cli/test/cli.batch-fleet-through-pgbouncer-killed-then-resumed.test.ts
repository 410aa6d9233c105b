// The fleet check of the issue that found the ledger broken behind a pooler, as an operator runs it: PgBouncer
// (Debian's) in transaction mode in front of the ledger's database, a coordinator and two `gw batch worker`s on 3,000
// captures, the coordinator and one worker SIGKILLed part way, then `--resume` through the same pooler. Every order is
// captured once; no process fails with "unexpected failure" (a prepared statement or a lock that lived on one server
// connection); a process with no listen URL says once that it polls, one given a direct `--ledger-listen-url` does not.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Sandbox } from '@gw/sandbox';
import { pgBouncerInstalled, startPgBouncer, type PgBouncer } from '@gw/test-postgres';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw } from './io.ts';
import { authorisedOrdersFile, sandboxAndLedgerForFile } from './sandbox-harness.ts';

const BIN = join(import.meta.dirname, '../src/bin.ts');
const ORDERS = 3_000;
const POLLING = 'delivered no notification within 1 s (a transaction pooler such as PgBouncer?): workers look for work every pollMs';

let sandbox: Sandbox;
let direct: string;
let cluster: { url: string };
sandboxAndLedgerForFile('cli_fleet_pgbouncer', (started) => {
  ({ sandbox, ledger: direct, cluster } = started);
});
let bouncer: PgBouncer;
beforeAll(async () => {
  // CI installs it (.ci/run); a machine without it is told how, rather than the test passing without a pooler.
  if (!pgBouncerInstalled()) throw new Error('PgBouncer is not installed: apt-get install -y pgbouncer');
  bouncer = await startPgBouncer(cluster, { poolMode: 'transaction', poolSize: 4 });
});
afterAll(() => bouncer?.stop());

/** Capture requests the sandbox received (each carries a chunk of orders). */
const captures = () => sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;

/** `gw args` as a process of its own in `cwd` (to be killed with SIGKILL): its exit code and what it printed. */
function started(args: string[], cwd: string): { kill: () => void; exited: Promise<number | null>; err: () => string; output: () => string } {
  const child = spawn(process.execPath, ['--conditions=@gw/source', BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (err += String(c)));
  return {
    kill: () => child.kill('SIGKILL'),
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    err: () => err,
    output: () => out + err,
  };
}

async function until(check: () => boolean, what: string, seen: () => string): Promise<void> {
  const end = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; ${seen()}`);
    await sleep(5);
  }
}

describe('gw batch through PgBouncer in transaction mode', () => {
  it('a coordinator and two workers, the coordinator and a worker SIGKILLed, --resume through the pooler: every order captured once, no unexpected failure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-pgbouncer-'));
    const orders = await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), ORDERS, { prefix: 'PGB', amount: '5.00' });
    const pooled = bouncer.urlFor(direct);
    const batch = 'fleet-through-pgbouncer';
    // Short leases, so the killed processes' chunks are taken over soon; a gateway 20 ms away.
    const flags = [
      '--base-url',
      sandbox.url,
      '--sandbox-defaults',
      '--reconcile',
      'sandbox',
      '--concurrency',
      '2',
      '--ledger',
      pooled,
      '--batch',
      batch,
      '--lease-ms',
      '1500',
      '--timeout-ms',
      '1000',
      '--send-margin-ms',
      '200',
    ];
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 20 } });
    onTestFinished(() => sandbox.faults.setRules({}));
    const before = captures();
    const coordinator = started(['batch', 'capture', 'orders.csv', ...flags], dir);
    const polling = started(['batch', 'worker', ...flags], dir);
    const listening = started(['batch', 'worker', ...flags, '--ledger-listen-url', direct], dir);
    onTestFinished(() => [coordinator, polling, listening].forEach((p) => p.kill()));
    await until(
      () => captures() - before >= 12,
      'a dozen captures',
      () => `${captures() - before} captures; coordinator: ${coordinator.output()}`,
    );
    coordinator.kill();
    polling.kill();
    expect(await coordinator.exited).toBe(null);
    expect(await polling.exited).toBe(null);
    const done = captures() - before;
    expect(done).toBeLessThan(ORDERS / 50);

    const resumed = await gw(['batch', 'capture', 'orders.csv', '--resume', ...flags], { cwd: dir });
    expect(resumed.err).not.toContain('unexpected failure');
    expect(resumed.status, resumed.err).toBe(EXIT_CODES.ok);
    expect(await listening.exited, listening.output()).toBe(0);
    // Told once, on stderr, by the process that had no listen URL; the one given a direct URL was woken and said nothing.
    expect(resumed.err.split(POLLING).length - 1).toBe(1);
    expect(listening.err()).not.toContain(POLLING);
    expect(listening.output()).not.toContain('unexpected failure');
    expect(readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8').match(/,succeeded,/g)).toHaveLength(ORDERS);
    const applied = sandbox.state.appliedCounts('capture');
    expect(orders.filter((o) => applied.get(o.transaction_id) !== 1)).toEqual([]);
  }, 120_000);
});
