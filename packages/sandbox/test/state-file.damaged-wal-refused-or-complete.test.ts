// `gw-sandbox --state FILE` killed (SIGKILL) under load, its side files then lost or cut: on restart every answered
// payment and refund is there, or the sandbox refuses the file with SandboxStateIncompleteError; no id is answered twice.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCardRespon } from '@gw/xml-codec';
import { SandboxStateIncompleteError, startSandbox, type Sandbox } from '../src/index.ts';
import { api } from './control-harness.ts';
import { cardPayment, send } from './harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-state-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BIN = join(import.meta.dirname, '../src/bin.ts');

type Started = { kind: 'listening'; child: ChildProcess; sandbox: Sandbox } | { kind: 'refused'; code: number | null; stderr: string };

/** `gw-sandbox --state file` as a process: listening, or exited (refused) with what it printed. */
function startBin(file: string): Promise<Started> {
  const child = spawn(process.execPath, ['--conditions=@gw/source', '--no-warnings', BIN, '--port', '0', '--state', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(chunk.toString());
      if (match) resolve({ kind: 'listening', child, sandbox: { url: match[1]! } as Sandbox });
    });
    child.once('exit', (code) => resolve({ kind: 'refused', code, stderr }));
  });
}

/** What the load saw answered: payment transaction id -> order_no, refund reference -> its payment's id. */
interface Answered {
  readonly payments: Map<string, string>;
  readonly refunds: Map<string, string>;
}

/** Payments, each captured and partly refunded, from `workers` loops until `stop()`; answered ids recorded. */
async function load(sandbox: Sandbox, answered: Answered, stop: () => boolean, workers = 6): Promise<void> {
  const worker = async () => {
    while (!stop()) {
      const payment = cardPayment({ amount: '20.00' });
      const paid = await send(sandbox, 'authoriseCard', payment).catch(() => null);
      if (paid?.status !== 200) continue;
      const id = decodeCardRespon(paid.text).transaction_id;
      if (!id) continue;
      answered.payments.set(id, payment.order_no as string);
      const element = { transaction_id: id, order_no: payment.order_no, currency: 'USD', amount: '20.00' };
      const captured = await send(sandbox, 'capture', { capture_orders: [element] }).catch(() => null);
      if (captured?.status !== 200) continue;
      const refund = await send(sandbox, 'refund', { refund_orders: [{ ...element, refund_amount: '5.00', refund_reason: 'kill test' }] }).catch(() => null);
      const reference = refund?.status === 200 ? (refund.json?.refund_orders?.[0]?.refund_reference as string | undefined) : undefined;
      if (reference) answered.refunds.set(reference, id);
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
}

/** A state file written by a sandbox killed with SIGKILL in the middle of a load; what the load saw answered. */
async function killedUnderLoad(file: string): Promise<Answered> {
  const started = await startBin(file);
  if (started.kind !== 'listening') throw new Error(`gw-sandbox did not start: ${started.stderr}`);
  const answered: Answered = { payments: new Map(), refunds: new Map() };
  let killed = false;
  const running = load(started.sandbox, answered, () => killed);
  // Killed once enough is answered, while requests are in flight.
  const until = Date.now() + 20_000;
  while ((answered.payments.size < 150 || answered.refunds.size < 60) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  const exited = new Promise((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGKILL');
  killed = true;
  await exited;
  await running;
  expect(answered.payments.size).toBeGreaterThanOrEqual(150);
  return answered;
}

/** Restarts on `file`: every answered payment and refund is there, or the start is refused with the typed error. */
async function completeOrRefused(file: string, answered: Answered): Promise<'complete' | 'refused'> {
  const started = await startBin(file);
  if (started.kind === 'refused') {
    expect(started.code).toBe(2);
    expect(started.stderr).toContain('SandboxStateIncompleteError (GW_CONFIG)');
    expect(started.stderr).toMatch(/-wal/);
    expect(started.stderr).toMatch(/start a new state/);
    return 'refused';
  }
  const { child, sandbox } = started;
  try {
    const orders = new Map<string, string>(
      ((await api(sandbox, 'GET', 'orders?limit=10000')).json.orders as { transactionId: string; orderNo: string }[]).map((o) => [o.transactionId, o.orderNo]),
    );
    const refunds = new Map<string, string>(
      ((await api(sandbox, 'GET', 'refunds')).json.refunds as { reference: string; transactionId: string }[]).map((r) => [r.reference, r.transactionId]),
    );
    const missingPayments = [...answered.payments].filter(([id, no]) => orders.get(id) !== no);
    const missingRefunds = [...answered.refunds].filter(([reference, id]) => refunds.get(reference) !== id);
    expect({ missingPayments, missingRefunds }).toEqual({ missingPayments: [], missingRefunds: [] });
    // New payments and refunds get ids never answered before, for any order.
    const used = new Set([...answered.payments.keys(), ...answered.refunds.keys(), ...orders.keys(), ...refunds.keys()]);
    const fresh: Answered = { payments: new Map(), refunds: new Map() };
    let n = 0;
    await load(sandbox, fresh, () => n++ >= 20, 2);
    expect(fresh.payments.size).toBeGreaterThan(0);
    for (const id of [...fresh.payments.keys(), ...fresh.refunds.keys()]) expect(used.has(id), `${id} was issued again`).toBe(false);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  return 'complete';
}

/** The side files of a state file (`-wal`, `-shm`, `-journal`) and their sizes. */
function sideFiles(file: string): Record<string, number> {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.startsWith(`${base}-`))
      .map((name) => [name.slice(base.length), statSync(join(dir, name)).size]),
  );
}

describe('state file after a SIGKILL under load, its -wal then lost or cut', () => {
  it('holds every answered payment and refund with the -wal removed, or refuses the file; no id is issued twice', async () => {
    const file = join(dir, 'wal-removed.sqlite');
    const answered = await killedUnderLoad(file);
    const wal = `${file}-wal`;
    if (existsSync(wal)) rmSync(wal);
    const outcome = await completeOrRefused(file, answered);
    // This sandbox never leaves a -wal: each answered write is complete in the file itself.
    expect({ outcome, side: Object.keys(sideFiles(file)).filter((s) => s !== '-journal') }).toEqual({ outcome: 'complete', side: [] });
  });

  it('holds every answered payment and refund with the -wal truncated, or refuses the file', async () => {
    const file = join(dir, 'wal-truncated.sqlite');
    const answered = await killedUnderLoad(file);
    const wal = `${file}-wal`;
    if (existsSync(wal)) truncateSync(wal, Math.floor(statSync(wal).size / 2));
    expect(await completeOrRefused(file, answered)).toBe('complete');
  });

  it('holds every answered payment and refund in a copy of the .sqlite file alone, taken after the kill', async () => {
    const file = join(dir, 'copied.sqlite');
    const answered = await killedUnderLoad(file);
    const copy = join(dir, 'copy-alone.sqlite');
    copyFileSync(file, copy);
    expect(await completeOrRefused(copy, answered)).toBe('complete');
  });

  it('refuses, with SandboxStateIncompleteError and files untouched, a WAL-mode file an older sandbox left with its -wal, whole or cut', async () => {
    for (const cut of [false, true]) {
      const file = join(dir, `older-${String(cut)}.sqlite`);
      // An older sandbox (WAL mode) killed with its last writes in the -wal, as a child process holding the file.
      const script = `
        const { DatabaseSync } = require('node:sqlite');
        const db = new DatabaseSync(${JSON.stringify(file)});
        db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
        db.exec(\`${(await import('../src/store/schema.ts')).SCHEMA}\`);
        db.exec("INSERT INTO gw_sandbox_meta VALUES ('format', 'gw-sandbox-state'), ('version', '1'), ('idSequence', '7')");
        db.exec("INSERT INTO orders VALUES ('T1', '{}')");
        process.kill(process.pid, 'SIGKILL');`;
      await new Promise((resolve) => spawn(process.execPath, ['--no-warnings', '-e', script], { stdio: 'ignore' }).once('exit', resolve));
      const wal = `${file}-wal`;
      expect(existsSync(wal)).toBe(true);
      if (cut) truncateSync(wal, 100);
      const before = [readFileSync(file), readFileSync(wal)];
      const error = await startSandbox({ stateFile: file }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxStateIncompleteError);
      expect(error).toMatchObject({ name: 'SandboxStateIncompleteError', code: 'GW_CONFIG', details: { file }, sideFiles: [wal] });
      expect((error as Error).message).toMatch(/Restore the file together with its .*-wal/);
      expect((error as Error).message).toMatch(/start a new state/);
      expect([readFileSync(file), readFileSync(wal)]).toEqual(before);
      // The way out it names: another path starts afresh.
      await using fresh = await startSandbox({ stateFile: join(dir, `new-${String(cut)}.sqlite`) });
      expect(fresh.state.orders.size).toBe(0);
    }
  });

  it('leaves nothing beside a file it closed cleanly, and opens it again', async () => {
    const file = join(dir, 'clean.sqlite');
    const a = await startSandbox({ stateFile: file });
    await send(a, 'authoriseCard', cardPayment());
    await a.stop();
    expect(sideFiles(file)).toEqual({});
    await using b = await startSandbox({ stateFile: file });
    expect(b.state.orders.size).toBe(1);
  });
});
