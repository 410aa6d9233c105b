// A de-duplication store that cannot record a handled event (the file store on a full disk) does not make the sender's
// retries run the handler again: every delivery is answered 2xx, the handler runs once, the failure is reported through
// onError as a NotificationNotRecordedError; once space is freed the store records again, the missed id included.
// A store that fails before the handler (the claim) still answers 500 without running it, so the sender retries.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFileDedupeStore,
  createMemoryDedupeStore,
  createNotificationReceiver,
  NotificationNotRecordedError,
  type DedupeStore,
  type ReceiverAnswer,
} from '../src/index.ts';
import { signedNotification } from '../src/testing.ts';
import { cardEvent, deliver, listen, SECRET } from './helpers.ts';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });

/**
 * A small disk: a real 64 KiB tmpfs where mount is allowed (GW_TEST_NO_MOUNT=1 skips it), else the file store wrapped
 * so that its writes fail with ENOSPC while "full", as they would on a full disk.
 */
function smallDisk(): { dir: string; real: boolean; store(path: string): DedupeStore; fill(): void; free(): void; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'gw-notify-enospc-'));
  try {
    if (process.env.GW_TEST_NO_MOUNT) throw new Error('mount not wanted');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    const filler = join(dir, 'filler');
    return {
      dir,
      real: true,
      store: (path) => createFileDedupeStore(path),
      fill() {
        // Written until the disk refuses: every page taken.
        const fd = openSync(filler, 'w');
        const page = Buffer.alloc(4096, 'x');
        try {
          for (;;) writeSync(fd, page);
        } catch (error) {
          if ((error as { code?: unknown }).code !== 'ENOSPC') throw error;
        } finally {
          closeSync(fd);
        }
      },
      free: () => unlinkSync(filler),
      close: () => execFileSync('umount', [dir]),
    };
  } catch {
    let full = false;
    return {
      dir,
      real: false,
      store(path) {
        const file = createFileDedupeStore(path);
        return {
          claim: (id, leaseMs) => file.claim(id, leaseMs),
          commit(id) {
            if (full) throw enospc();
            return file.commit(id);
          },
          release: (id) => file.release(id),
        };
      },
      fill: () => void (full = true),
      free: () => void (full = false),
      close: () => rmSync(dir, { recursive: true }),
    };
  }
}

interface Reported {
  readonly error: unknown;
  readonly answer: ReceiverAnswer;
}

async function serve(
  store: DedupeStore,
  reported: Reported[],
  runs: string[],
  { handlerMs = 0, leaseMs }: { handlerMs?: number; leaseMs?: number } = {},
): Promise<string> {
  const receiver = createNotificationReceiver({
    verifiers: [createHmacSha256Signer({ secret: SECRET })],
    store,
    ...(leaseMs === undefined ? {} : { leaseMs }),
    onEvent: async (event) => {
      runs.push(event.id);
      if (handlerMs > 0) await new Promise((r) => setTimeout(r, handlerMs));
    },
    onError: (error, answer) => void reported.push({ error, answer }),
  });
  const { url, server } = await listen((req, res) => void receiver.node(req, res));
  servers.push(server);
  return url;
}

/** One delivery of `event`, signed afresh as each retry of a sender is. */
async function deliverEvent(url: string, event: Awaited<ReturnType<typeof signedNotification>>['event']) {
  const n = await signedNotification({ event, secret: SECRET });
  return deliver(url, n.body, n.headers);
}

const idsIn = (path: string): string[] => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);

describe('the file store on a full disk', () => {
  it('one event delivered 4 times: the handler runs once, every answer is 2xx, onError gets the typed error; with space freed the store records again', async () => {
    const disk = smallDisk();
    try {
      const path = join(disk.dir, 'seen', 'events.log');
      const reported: Reported[] = [];
      const runs: string[] = [];
      // Retries that come after the claim's lease ran out (a sender retrying minutes later): none runs the handler again.
      const url = await serve(disk.store(path), reported, runs, { leaseMs: 1 });
      const a = (await signedNotification({ event: cardEvent(), secret: SECRET })).event;
      disk.fill();

      const answers = [];
      for (let i = 0; i < 4; i++) {
        answers.push(await deliverEvent(url, a));
        await new Promise((r) => setTimeout(r, 5)); // time passing is the point: the 1 ms claim lease has run out
      }
      expect(runs).toEqual([a.id]);
      expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 200]);
      expect(answers.map((x) => x.json)).toEqual([
        { outcome: 'processed', id: a.id },
        { outcome: 'duplicate', id: a.id },
        { outcome: 'duplicate', id: a.id },
        { outcome: 'duplicate', id: a.id },
      ]);
      // Reported each time the store refused it: after the handler, then at each later delivery that tried again.
      expect(reported.map((r) => r.error)).toEqual([
        expect.objectContaining({
          name: 'NotificationNotRecordedError',
          code: 'GW_NOT_RECORDED',
          details: { eventId: a.id, reason: 'ENOSPC', when: 'after-handler' },
        }),
        ...Array.from({ length: 3 }, () =>
          expect.objectContaining({ code: 'GW_NOT_RECORDED', details: { eventId: a.id, reason: 'ENOSPC', when: 'later-delivery' } }),
        ),
      ]);
      const first = reported[0]!.error as NotificationNotRecordedError;
      expect(first).toBeInstanceOf(NotificationNotRecordedError);
      expect(first.message).toMatch(/handler finished but the de-duplication store could not record it \(ENOSPC\).*free space on its disk/);
      expect((first.cause as { code?: string }).code).toBe('ENOSPC');
      expect(reported.map((r) => [r.answer.status, r.answer.outcome])).toEqual([
        [200, 'processed'],
        [200, 'duplicate'],
        [200, 'duplicate'],
        [200, 'duplicate'],
      ]);
      // Neither the secret nor anything of the notification's data in what is reported.
      for (const { error } of reported) {
        const text = `${(error as Error).message} ${JSON.stringify(error)}`;
        for (const secretOrData of [SECRET, '411111', 'T2026112300000001', 'A300400']) expect(text).not.toContain(secretOrData);
      }
      expect(idsIn(path)).toEqual([]);

      // Space freed: the next event is recorded, and so is the one the store missed.
      disk.free();
      const b = (await signedNotification({ event: cardEvent({ order_no: 'A-2' }), secret: SECRET })).event;
      expect(await deliverEvent(url, b)).toEqual({ status: 200, json: { outcome: 'processed', id: b.id } });
      expect(idsIn(path).sort()).toEqual([a.id, b.id].sort());
      expect(await deliverEvent(url, a)).toEqual({ status: 200, json: { outcome: 'duplicate', id: a.id } });
      expect(reported).toHaveLength(4);
      expect(runs).toEqual([a.id, b.id]);

      // A restart reads both back: neither handler runs again.
      const restarted = await serve(disk.store(path), reported, runs);
      for (const event of [a, b]) expect((await deliverEvent(restarted, event)).json).toEqual({ outcome: 'duplicate', id: event.id });
      expect(runs).toEqual([a.id, b.id]);
      expect(reported).toHaveLength(4);
      expect(readFileSync(path, 'utf8')).toMatch(/^(evt_\w+\n){2}$/);
    } finally {
      disk.close();
    }
  });

  it('runs the handler once under 20 concurrent deliveries on a full disk', async () => {
    const disk = smallDisk();
    try {
      const path = join(disk.dir, 'events.log');
      const reported: Reported[] = [];
      const runs: string[] = [];
      const url = await serve(disk.store(path), reported, runs, { handlerMs: 100 });
      disk.fill();
      const a = (await signedNotification({ event: cardEvent(), secret: SECRET })).event;
      const answers = await Promise.all(Array.from({ length: 20 }, () => deliverEvent(url, a)));
      // The deliveries that came while the handler ran are told to retry (409); the retries are acknowledged.
      const retried = await Promise.all(answers.filter((x) => x.status === 409).map(() => deliverEvent(url, a)));
      expect(runs).toEqual([a.id]);
      expect([...answers, ...retried].filter((x) => x.json.outcome === 'processed')).toHaveLength(1);
      expect(retried.every((x) => x.status === 200 && x.json.outcome === 'duplicate')).toBe(true);
      expect(reported.every((r) => r.error instanceof NotificationNotRecordedError)).toBe(true);
    } finally {
      disk.close();
    }
  });
});

describe('a store that answers later and refuses the record (a database down)', () => {
  it('acknowledges, reports, and records at a later delivery once the store takes it', async () => {
    const memory = createMemoryDedupeStore();
    let down = true;
    const committed: string[] = [];
    const store: DedupeStore = {
      claim: async (id, leaseMs) => memory.claim(id, leaseMs),
      commit: async (id) => {
        await new Promise((r) => setTimeout(r, 5)); // the store answers later, as a database does: the delay is its behaviour
        if (down) throw Object.assign(new Error('connection terminated'), { code: '57P01' });
        committed.push(id);
        memory.commit(id);
      },
      release: async (id) => memory.release(id),
    };
    const errors: unknown[] = [];
    let runs = 0;
    const receiver = createNotificationReceiver({
      verifiers: [createHmacSha256Signer({ secret: SECRET })],
      store,
      onEvent: () => void (runs += 1),
      onError: (e) => void errors.push(e),
    });
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const first = await receiver.handle({ body: n.bytes, headers: n.headers }, undefined);
    expect([first.status, first.outcome]).toEqual([200, 'processed']);
    expect(errors).toEqual([expect.objectContaining({ code: 'GW_NOT_RECORDED', details: { eventId: n.event.id, reason: '57P01', when: 'after-handler' } })]);
    down = false;
    const second = await receiver.handle({ body: n.bytes, headers: n.headers }, undefined);
    expect([second.status, second.outcome, second.error]).toEqual([200, 'duplicate', undefined]);
    expect(committed).toEqual([n.event.id]);
    expect((await receiver.handle({ body: n.bytes, headers: n.headers }, undefined)).outcome).toBe('duplicate');
    expect(runs).toBe(1);
    expect(errors).toHaveLength(1);
  });
});

describe('an onError that throws', () => {
  it('does not change the answer: the handled event is still answered 200 and not run again', async () => {
    const store: DedupeStore = {
      claim: () => 'claimed',
      commit: () => {
        throw enospc();
      },
      release: () => undefined,
    };
    let runs = 0;
    const receiver = createNotificationReceiver({
      verifiers: [createHmacSha256Signer({ secret: SECRET })],
      store,
      onEvent: () => void (runs += 1),
      onError: () => {
        throw new Error('the log is down too');
      },
    });
    const { url, server } = await listen((req, res) => void receiver.node(req, res));
    servers.push(server);
    const a = (await signedNotification({ event: cardEvent(), secret: SECRET })).event;
    expect((await deliverEvent(url, a)).status).toBe(200);
    expect((await deliverEvent(url, a)).json).toEqual({ outcome: 'duplicate', id: a.id });
    expect(runs).toBe(1);
  });
});

describe('a store that fails before the handler (the claim)', () => {
  it('answers 500 without running the handler, so the sender retries; the retry runs it once the store is back', async () => {
    const memory = createMemoryDedupeStore();
    let broken = true;
    const store: DedupeStore = {
      claim(id, leaseMs) {
        if (broken) throw enospc();
        return memory.claim(id, leaseMs);
      },
      commit: (id) => memory.commit(id),
      release: (id) => memory.release(id),
    };
    const reported: Reported[] = [];
    const runs: string[] = [];
    const url = await serve(store, reported, runs);
    const a = (await signedNotification({ event: cardEvent(), secret: SECRET })).event;
    for (let i = 0; i < 2; i++)
      expect(await deliverEvent(url, a)).toEqual({ status: 500, json: { outcome: 'failed', message: 'the notification handler failed; retry later' } });
    expect(runs).toEqual([]);
    expect(reported.map((r) => [(r.error as { code?: string }).code, r.answer.status])).toEqual([
      ['ENOSPC', 500],
      ['ENOSPC', 500],
    ]);
    broken = false;
    expect(await deliverEvent(url, a)).toEqual({ status: 200, json: { outcome: 'processed', id: a.id } });
    expect(await deliverEvent(url, a)).toEqual({ status: 200, json: { outcome: 'duplicate', id: a.id } });
    expect(runs).toEqual([a.id]);
  });
});
