// `gw-sandbox --state FILE` on a full filesystem (a small tmpfs): writes it cannot keep get HTTP 503 with the sandbox's
// error body, reads go on, the process stays up; once space returns writes go through, and nothing answered is lost.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCardRespon } from '@gw/xml-codec';
import type { Sandbox } from '../src/index.ts';
import { api } from './control-harness.ts';
import { cardPayment, send, type Reply } from './harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-state-full-'));
let mounted = false;
let why = '';
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
  mounted = true;
} catch (error) {
  why = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  console.warn(`state-file.full-disk: skipped, a tmpfs cannot be mounted here (needs root): ${why}`);
}
afterAll(() => {
  if (mounted) execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
});
const BIN = join(import.meta.dirname, '../src/bin.ts');

async function startBin(file: string): Promise<{ child: ChildProcess; sandbox: Sandbox; stderr: () => string }> {
  const child = spawn(process.execPath, ['--conditions=@gw/source', '--no-warnings', BIN, '--port', '0', '--state', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`gw-sandbox exited with ${code}: ${stderr}`)));
  });
  return { child, sandbox: { url } as Sandbox, stderr: () => stderr };
}

async function stopBin(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

/** Fills the filesystem of `path` until it has no byte left. */
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    // The last bytes, in smaller pieces.
    for (const size of [512, 64, 1]) {
      try {
        for (;;) writeSync(fd, chunk.subarray(0, size));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(!mounted)('state file on a full disk', () => {
  it('answers 503 with the error body to writes it cannot keep, keeps answering reads, and takes writes again once space returns, losing nothing answered', async () => {
    const file = join(dir, 'team.sqlite');
    const filler = join(dir, 'filler');
    const { child, sandbox, stderr } = await startBin(file);
    const answered = new Map<string, string>();
    let clockOffsetMs = -1;
    const pay = async (payment = cardPayment({ amount: '10.00' })): Promise<{ reply: Reply; payment: Record<string, unknown> }> => {
      const reply = await send(sandbox, 'authoriseCard', payment);
      if (reply.status === 200) answered.set(decodeCardRespon(reply.text).transaction_id!, payment.order_no as string);
      return { reply, payment };
    };
    try {
      for (let i = 0; i < 20; i++) expect((await pay()).reply.status).toBe(200);
      const first = [...answered][0]!;
      fill(filler);

      // Writes: answered while the file still had room in its own pages, then 503 once it must grow.
      let refused: { reply: Reply; payment: Record<string, unknown> } | undefined;
      for (let i = 0; i < 500 && !refused; i++) {
        const attempt = await pay();
        if (attempt.reply.status !== 200) refused = attempt;
      }
      expect(refused, 'no payment was refused on a full disk').toBeDefined();
      expect(refused!.reply.status).toBe(503);
      expect(refused!.reply.contentType).toMatch(/^application\/json/);
      expect(refused!.reply.json).toMatchObject({
        return_status: '0',
        return_message: expect.stringMatching(/state file .*nothing of this request was applied/),
        errors: [{ path: 'stateFile', message: expect.stringMatching(/full/) }],
      });
      for (let i = 0; i < 3; i++) expect((await pay()).reply.status).toBe(503);
      const refusedNo = refused!.payment.order_no as string;
      // A change small enough to fit in pages the file already has may still be kept, and then answered: either way honest.
      const captured = await send(sandbox, 'capture', { capture_orders: [{ transaction_id: first[0], order_no: first[1], currency: 'USD', amount: '10.00' }] });
      expect([200, 503]).toContain(captured.status);

      // Reads: the query, the control API, the console; the refused payment is nowhere (nothing of it was applied).
      const query = await send(sandbox, 'query', { transaction_id: first[0] });
      expect(query.status).toBe(200);
      expect(query.json.orders_list[0]).toMatchObject({ transaction_id: first[0], order_no: first[1] });
      expect((await send(sandbox, 'query', { order_no: refusedNo })).json.orders_list[0]).toMatchObject({ query_result: '0' });
      const orders = await api(sandbox, 'GET', 'orders?limit=10000');
      expect(orders.status).toBe(200);
      expect(new Set(orders.json.orders.map((o: { transactionId: string }) => o.transactionId))).toEqual(new Set(answered.keys()));
      expect((await fetch(`${sandbox.url}/sandbox/console`)).status).toBe(200);
      // A control API change: kept and answered, or refused with the control API's error body and undone.
      const advance = await api(sandbox, 'POST', 'clock/advance', { seconds: 3600 });
      if (advance.status === 503) expect(advance.json.error.code).toBe('state_not_kept');
      else expect(advance.status).toBe(200);
      const offsetMs = advance.status === 200 ? 3_600_000 : 0;
      expect((await api(sandbox, 'GET', 'clock')).json.offsetMs).toBe(offsetMs);
      // A reset must journal every page it empties, more than the file has room for: refused, nothing emptied.
      const reset = await api(sandbox, 'POST', 'reset');
      expect({ status: reset.status, code: reset.json?.error?.code }).toEqual({ status: 503, code: 'state_not_kept' });
      expect((await api(sandbox, 'GET', 'orders?limit=10000')).json.orders).toHaveLength(answered.size);
      expect(child.exitCode).toBe(null);
      expect(stderr()).toMatch(/answering HTTP 503/);

      // Space returns: the refused payment goes through when sent again (it was never applied), so do new ones.
      rmSync(filler);
      expect((await pay(refused!.payment)).reply.status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await pay()).reply.status).toBe(200);
      const capturedAgain = (
        await send(sandbox, 'capture', { capture_orders: [{ transaction_id: first[0], order_no: first[1], currency: 'USD', amount: '10.00' }] })
      ).json.capture_orders[0];
      if (captured.status === 200) expect(capturedAgain.error_message).toMatch(/^E205:/);
      else expect(capturedAgain).toMatchObject({ error_message: '' });
      clockOffsetMs = offsetMs;
      expect(stderr()).toMatch(/written again/);
    } finally {
      expect(await stopBin(child)).toBe(0);
    }

    // Nothing answered is lost, across a restart too; ids go on from the last one.
    const again = await startBin(file);
    try {
      expect((await api(again.sandbox, 'GET', 'clock')).json.offsetMs).toBe(clockOffsetMs);
      const orders = await api(again.sandbox, 'GET', 'orders?limit=10000');
      const held = new Map<string, string>(orders.json.orders.map((o: { transactionId: string; orderNo: string }) => [o.transactionId, o.orderNo]));
      expect([...answered].filter(([id, no]) => held.get(id) !== no)).toEqual([]);
      expect(held.size).toBe(answered.size);
      const next = decodeCardRespon((await send(again.sandbox, 'authoriseCard', cardPayment())).text).transaction_id!;
      expect(answered.has(next)).toBe(false);
    } finally {
      await stopBin(again.child);
    }
  });
});
