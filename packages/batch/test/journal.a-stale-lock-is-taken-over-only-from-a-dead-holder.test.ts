import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalLockedError, resumeBatch, type JournalLockHolder } from '../src/index.ts';
import { lockJournal } from '../src/journal/journal-lock.ts';
import { capturedRefundOrders, clientFor, indexesOf, refundsPerOrder } from './harness.ts';
import { startCrashChild } from './crash-child-run.ts';

/** The crash child's request timeout and margin: a resume after a kill waits them out (the dead holder's requests). */
const AFTER_A_KILL = { timeoutMs: 2000, sendMarginMs: 100 };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const lockChild = join(import.meta.dirname, 'fixtures/lock-child.ts');
const refundRequests = () => sandbox.state.requests.filter((r) => r.path === '/v1/refund').length;
const newJournal = () => join(mkdtempSync(join(tmpdir(), 'gw-lock-')), 'refunds.jsonl');
const holderIn = (journal: string) => JSON.parse(readFileSync(`${journal}.lock`, 'utf8')) as JournalLockHolder;

/** A pid that no process has any more: a process that has exited and been reaped. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

/** A lock file as a process on this host would write it, with these members changed. */
function writeLock(journal: string, holder: Partial<JournalLockHolder>): string {
  const self = readFileSync('/proc/self/stat', 'utf8');
  const text = `${JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), processStart: self.slice(self.lastIndexOf(')') + 2).split(' ')[19], pidNamespace: null, role: 'run', ...holder })}\n`;
  writeFileSync(`${journal}.lock`, text);
  return text;
}

/** Runs lock-child contenders at the same instant; each holds a lock it takes for a second. */
async function contend(journal: string, count: number) {
  const env = { JOURNAL: journal, START_AT: String(Date.now() + 3_000), HOLD_MS: '1000' };
  const ended = await Promise.all(Array.from({ length: count }, () => startCrashChild(env, lockChild).ended));
  for (const e of ended) expect(e.stderr).toBe('');
  return ended.map((e) => JSON.parse(e.stdout) as { took: boolean; tookOverFrom?: JournalLockHolder | null; held?: [number, number]; reason?: string });
}

describe('a stale journal lock', () => {
  it('left by a run SIGKILLed mid-batch is taken over by resumeBatch, which finishes with no order refunded twice', async () => {
    const refunds = await capturedRefundOrders(sandbox, 120);
    const dir = mkdtempSync(join(tmpdir(), 'gw-lock-'));
    const journal = join(dir, 'refunds.jsonl');
    writeFileSync(join(dir, 'orders.json'), JSON.stringify(refunds));
    const env = { SANDBOX_URL: sandbox.url, JOURNAL: journal, OPERATION: 'refund', ORDERS: join(dir, 'orders.json') };
    const child = startCrashChild({ ...env, CRASH_STAGE: 'intent-written', CRASH_CHUNK: '2' });
    const killed = await child.ended;
    expect(killed.signal).toBe('SIGKILL');
    expect(holderIn(journal)).toMatchObject({ pid: child.pid, host: hostname(), role: 'run' });

    const result = await resumeBatch({
      client: clientFor(sandbox),
      operation: 'refund',
      orders: refunds,
      journal,
      reconcile: sandboxReconciler,
      ...AFTER_A_KILL,
    });
    expect(indexesOf(result.outcomes)).toEqual(refunds.map((_, i) => i));
    // Every order refunded exactly once. A chunk whose refund was still in flight at the kill and landed after it
    // ends unknown with how to check (the sandbox cannot tell its refund from an earlier one), never sent again.
    expect(refundsPerOrder(sandbox, refunds)).toEqual(refunds.map(() => 1));
    expect(result.counts.failed + result.counts.rejected).toBe(0);
    for (const o of result.outcomes) if (o.kind === 'unknown') expect(o.reconcile).toContain(String(o.order.order_no));
    expect(existsSync(`${journal}.lock`)).toBe(false);
  }, 60_000);

  it('of a SIGKILLed holder is taken over by exactly one of several processes racing for it, which is told whose it was', async () => {
    for (let round = 0; round < 2; round++) {
      const journal = newJournal();
      const holder = startCrashChild({ JOURNAL: journal, HOLD_MS: '60000' }, lockChild);
      while (!existsSync(`${journal}.lock`) || !readFileSync(`${journal}.lock`, 'utf8').endsWith('\n')) await sleep(10);
      process.kill(holder.pid, 'SIGKILL');
      await holder.ended;

      const outcomes = await contend(journal, 5);
      const tookOver = outcomes.filter((o) => o.tookOverFrom);
      expect(tookOver, JSON.stringify(outcomes)).toHaveLength(1);
      expect(tookOver[0]!.tookOverFrom).toMatchObject({ pid: holder.pid, host: hostname(), role: 'resume' });
      // No two ever held it at once (a child that started late may take it fresh once the winner let go).
      const held = outcomes.flatMap((o) => (o.held ? [o.held] : [])).sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < held.length; i++) expect(held[i]![0], JSON.stringify(outcomes)).toBeGreaterThanOrEqual(held[i - 1]![1]);
      for (const o of outcomes) if (!o.took) expect(o.reason).toBe('alive');
      expect(existsSync(`${journal}.lock`)).toBe(false);
    }
  }, 60_000);

  it('is taken over by exactly one of several lockJournal calls racing in one process', async () => {
    const journal = newJournal();
    const dead = deadPid();
    writeLock(journal, { pid: dead });
    const settled = await Promise.allSettled(Array.from({ length: 8 }, () => lockJournal(journal, 'resume', 1000)));
    const took = settled.filter((s) => s.status === 'fulfilled');
    expect(took).toHaveLength(1);
    expect(took[0]!.value.tookOverFrom).toMatchObject({ pid: dead, role: 'run' });
    for (const s of settled)
      if (s.status === 'rejected')
        expect(s.reason).toMatchObject({ name: 'JournalLockedError', details: { reason: 'alive', holder: { pid: process.pid, role: 'resume' } } });
    expect(holderIn(journal)).toMatchObject({ pid: process.pid, role: 'resume' });
    await took[0]!.value.release();
    expect(existsSync(`${journal}.lock`)).toBe(false);
  });

  it('whose pid now belongs to another process (another start time) is taken over', async () => {
    const journal = newJournal();
    writeLock(journal, { processStart: '1' });
    const lock = await lockJournal(journal, 'resume', 1000);
    expect(lock.tookOverFrom).toMatchObject({ pid: process.pid, processStart: '1' });
    await lock.release();
  });
});

describe('a resume that takes over from a dead holder', () => {
  it("waits out the holder's own request timeout and margin (from its lock) when they are longer than its own", async () => {
    const refunds = await capturedRefundOrders(sandbox, 2);
    const journal = newJournal();
    // The dead run's journal: its one chunk's intent written, the request perhaps sent, no answer recorded.
    const at = new Date().toISOString();
    const lines = [
      { type: 'start', version: 1, operation: 'refund', limit: 50, at },
      { type: 'intent', chunk: 0, orders: refunds.map((order, index) => ({ index, order })), at },
    ];
    writeFileSync(journal, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    // The dead run's requests could land until 3 s after it stopped; this resume's own would end within 0.21 s.
    writeLock(journal, { pid: deadPid(), requestsEndWithinMs: 3000 });
    const started = Date.now();
    const result = await resumeBatch({
      client: clientFor(sandbox),
      operation: 'refund',
      orders: refunds,
      journal,
      reconcile: sandboxReconciler,
      timeoutMs: 200,
      sendMarginMs: 10,
    });
    // Found dead when this resume took its lock over: it sent nothing after that, and its requests end 3 s on.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    expect(result.counts.succeeded).toBe(2);
  }, 30_000);
});

describe('a journal lock that is not stale, or cannot be told to be', () => {
  it('held by a stopped (SIGSTOP) run is never taken over: refused until it goes on and ends', async () => {
    const refunds = await capturedRefundOrders(sandbox, 200);
    const dir = mkdtempSync(join(tmpdir(), 'gw-lock-'));
    const journal = join(dir, 'refunds.jsonl');
    writeFileSync(join(dir, 'orders.json'), JSON.stringify(refunds));
    sandbox.faults.setRules({ '/v1/refund': { latencyMs: 300 } });
    const run = startCrashChild({ SANDBOX_URL: sandbox.url, JOURNAL: journal, OPERATION: 'refund', ORDERS: join(dir, 'orders.json') });
    while (!(existsSync(journal) && readFileSync(journal, 'utf8').includes('"type":"intent"'))) await sleep(10);
    process.kill(run.pid, 'SIGSTOP');
    try {
      await sleep(500);
      const resumed = resumeBatch({ client: clientFor(sandbox), operation: 'refund', orders: refunds, journal, ...AFTER_A_KILL });
      await expect(resumed).rejects.toBeInstanceOf(JournalLockedError);
      await expect(resumed).rejects.toMatchObject({ details: { reason: 'stopped', holder: { pid: run.pid, role: 'run' } } });
      await expect(resumed).rejects.toThrow(`kill -CONT ${run.pid}`);
      expect(holderIn(journal).pid).toBe(run.pid);
    } finally {
      process.kill(run.pid, 'SIGCONT');
    }
    const ran = await run.ended;
    sandbox.faults.setRules({});
    expect(ran.code).toBe(0);
    expect(refundsPerOrder(sandbox, refunds)).toEqual(refunds.map(() => 1));
    expect(existsSync(`${journal}.lock`)).toBe(false);
  }, 60_000);

  it('of another host, another pid namespace, or unreadable is refused, saying how to check and remove it, and left as it is', async () => {
    const client = clientFor(sandbox);
    const sent = refundRequests();
    const cases = [
      {
        lock: (j: string) => writeLock(j, { pid: deadPid(), host: 'batch-2.example' }),
        reason: 'other-host',
        says: /on batch-2\.example: ps -p \d+\), remove .*\.lock/,
      },
      {
        lock: (j: string) => writeLock(j, { pid: deadPid(), pidNamespace: 'pid:[1]' }),
        reason: 'other-pid-namespace',
        says: /another container.*remove .*\.lock/,
      },
      { lock: (j: string) => (writeFileSync(`${j}.lock`, '{"pid": 12'), '{"pid": 12'), reason: 'unreadable', says: /not a lock gw can read.*remove .*\.lock/ },
      { lock: (j: string) => (writeFileSync(`${j}.lock`, ''), ''), reason: 'unreadable', says: /not a lock gw can read/ },
    ];
    for (const { lock, reason, says } of cases) {
      const journal = newJournal();
      const text = lock(journal);
      const resumed = resumeBatch({ client, operation: 'refund', orders: [], journal, ...AFTER_A_KILL });
      await expect(resumed).rejects.toMatchObject({ name: 'JournalLockedError', code: 'GW_CONFIG', details: { journal, lockFile: `${journal}.lock`, reason } });
      await expect(resumed).rejects.toThrow(says);
      expect(readFileSync(`${journal}.lock`, 'utf8')).toBe(text);
    }
    expect(refundRequests()).toBe(sent);
  });
});
