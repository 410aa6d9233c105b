// One round of a fleet on one capture batch kept in PostgreSQL: WORKERS processes, one killed with SIGKILL at a
// random point and replaced by a process resuming the batch. Used by the fleet test (GW_FLEET_ORDERS, GW_FLEET_ROUNDS).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '@gw/sandbox';
import { newBatchId, type OrderOutcome } from '../../src/index.ts';
import { PgLedger } from '../../src/postgres/pg-ledger.ts';

const CHILD = join(import.meta.dirname, '../fixtures/ledger-worker-child.ts');

export interface Child {
  readonly process: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>;
}

/** Starts one process of the fleet (test/fixtures/ledger-worker-child.ts) with `env`. */
export function start(env: Record<string, string>): Child {
  const p = spawn(process.execPath, ['--conditions=@gw/source', CHILD], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  p.stdout!.on('data', (c) => (stdout += c));
  p.stderr!.on('data', (c) => (stderr += c));
  return { process: p, exited: new Promise((resolve) => p.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }))) };
}

/** What a round found: outcomes per order, captures per order, and whether the kill hit a live worker. */
export interface FleetRoundReport {
  readonly batch: string;
  readonly orders: number;
  readonly outcomes: number;
  readonly kinds: Record<string, number>;
  /** Orders the sandbox captured more than once. */
  readonly capturedTwice: number;
  /** Orders with no outcome. */
  readonly lost: number;
  /** Orders whose outcome disagrees with the sandbox (succeeded but not captured once, or failed but captured). */
  readonly disagreements: number;
  readonly killedLive: boolean;
  readonly killedRole: string;
  readonly killAfterMs: number;
  /** Chunks a survivor took over from an expired lease (settled by query first). */
  readonly takenOver: number;
  /** Writes refused because the writer's fencing token was stale. */
  readonly refusedWrites: number;
  /** Chunks each surviving process worked on. */
  readonly chunksByWorker: number[];
  readonly failures: string[];
  readonly durationMs: number;
}

/** Runs one round: `workers` processes on one batch of `orders`, one killed with SIGKILL after a random delay. */
export async function fleetRound(options: {
  sandbox: Sandbox;
  ledger: string;
  orders: readonly Record<string, string>[];
  workers: number;
  killWithinMs: number;
  leaseMs?: number;
  concurrency?: number;
  stallMs?: number;
}): Promise<FleetRoundReport> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'gw-fleet-'));
  const file = join(dir, 'orders.json');
  writeFileSync(file, JSON.stringify(options.orders));
  const batch = newBatchId();
  const env = {
    SANDBOX_URL: options.sandbox.url,
    LEDGER: options.ledger,
    BATCH: batch,
    ORDERS: file,
    LEASE_MS: String(options.leaseMs ?? 1500),
    CONCURRENCY: String(options.concurrency ?? 4),
  };
  const ledger = await PgLedger.open(options.ledger, { maxConnections: 2 });
  try {
    const children: { role: string; child: Child }[] = [{ role: 'run', child: start({ ...env, ROLE: 'run', HOLDER: 'fleet-0' }) }];
    // Workers start at once and join when the batch exists in the ledger.
    for (let i = 1; i < options.workers; i++) children.push({ role: 'worker', child: start({ ...env, ROLE: 'worker', HOLDER: `fleet-${i}` }) });
    // The random point: once a random share (5-65%) of the orders is decided, a process that holds a lease then (so it
    // dies with chunks in hand, maybe mid-request), chosen at random among those; at the latest after killWithinMs. The
    // victim is chosen among the lease holders, not beforehand: a worker that joins late may never hold a chunk.
    const target = Math.floor(options.orders.length * (0.05 + Math.random() * 0.6));
    const deadline = Date.now() + options.killWithinMs;
    let victimAt = Math.floor(Math.random() * children.length);
    while (Date.now() < deadline && children.some((c) => c.child.process.exitCode === null)) {
      const { rows } = await ledger.pool.query<{ decided: number; holders: string[] | null }>(
        "SELECT (SELECT count(*)::int FROM gw_batch_outcome WHERE batch_id = $1) + (SELECT coalesce(sum(succeeded + failed + rejected + unknown), 0)::int FROM gw_batch_result WHERE batch_id = $1) AS decided, (SELECT array_agg(DISTINCT holder) FROM gw_batch_chunk WHERE batch_id = $1 AND state = 'leased') AS holders",
        [batch],
      );
      const live = (rows[0]!.holders ?? []).map((h) => Number(h.replace('fleet-', ''))).filter((i) => children[i]?.child.process.exitCode === null);
      if (rows[0]!.decided >= target && live.length > 0) {
        victimAt = live[Math.floor(Math.random() * live.length)]!;
        break;
      }
      await new Promise((r) => setTimeout(r, 2 + Math.random() * 10));
    }
    const victim = children[victimAt]!;
    const killAfterMs = Date.now() - started;
    const killedLive = victim.child.process.exitCode === null && victim.child.process.kill('SIGKILL');
    // The killed one is replaced by a process that resumes the batch (its intake too, if it was the one cut).
    children.push({ role: 'resume', child: start({ ...env, ROLE: 'resume' }) });
    // A round that stalls (a chunk nobody finishes) is a failure, not a hang: its processes are killed after stallMs.
    const stall = setTimeout(() => children.forEach((c) => c.child.process.kill('SIGKILL')), options.stallMs ?? 600_000);
    const exits = await Promise.all(children.map(async (c) => ({ ...c, exit: await c.child.exited })));
    clearTimeout(stall);
    const failures = exits
      .filter((e) => e.child !== victim.child && e.exit.code !== 0)
      .map((e) => `${e.role} exited ${e.exit.code ?? e.exit.signal}: ${e.exit.stderr.slice(0, 400)}`);
    const reports = exits
      .filter((e) => e.exit.code === 0)
      .map((e) => JSON.parse(e.exit.stdout) as { worker: { takenOver: number; refused: number; chunks: number } });
    const takenOver = reports.reduce((n, r) => n + r.worker.takenOver, 0);
    const refusedWrites = reports.reduce((n, r) => n + r.worker.refused, 0);
    const outcomes: OrderOutcome[] = [];
    for await (const outcome of ledger.outcomes(batch)) outcomes.push(outcome);
    const applied = options.sandbox.state.appliedCounts('capture');
    const kinds: Record<string, number> = {};
    const seen = new Set<number>();
    let disagreements = 0;
    for (const o of outcomes) {
      kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
      seen.add(o.index);
      const captured = applied.get(String(o.order.transaction_id)) ?? 0;
      if ((o.kind === 'succeeded' && captured !== 1) || (o.kind === 'failed' && captured !== 0)) disagreements += 1;
    }
    const capturedTwice = options.orders.filter((o) => (applied.get(o.transaction_id!) ?? 0) > 1).length;
    const lost = options.orders.filter((_, i) => !seen.has(i)).length;
    return {
      batch,
      orders: options.orders.length,
      outcomes: outcomes.length,
      kinds,
      capturedTwice,
      lost,
      disagreements,
      killedLive,
      killedRole: victim.role,
      killAfterMs,
      takenOver,
      refusedWrites,
      chunksByWorker: reports.map((r) => r.worker.chunks),
      failures,
      durationMs: Date.now() - started,
    };
  } finally {
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
