import type { Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileDedupeStore, createNotificationReceiver, type DedupeStore, type NotificationEvent } from '../src/index.ts';
import { signedNotification } from '../src/testing.ts';
import { cardEvent, deliver, listen, SECRET } from './helpers.ts';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

async function serve(onEvent: (event: NotificationEvent) => void | Promise<void>, store?: DedupeStore): Promise<string> {
  const receiver = createNotificationReceiver({ verifiers: [createHmacSha256Signer({ secret: SECRET })], onEvent, ...(store ? { store } : {}) });
  const { url, server } = await listen((req, res) => void receiver.node(req, res));
  servers.push(server);
  return url;
}

describe('the handler runs once per event id', () => {
  it('acknowledges a duplicate delivery with 200 without running the handler again', async () => {
    let runs = 0;
    const url = await serve(() => void (runs += 1));
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    expect((await deliver(url, n.body, n.headers)).json.outcome).toBe('processed');
    const again = await signedNotification({ event: n.event, secret: SECRET }); // a retry: same event, signed afresh
    expect(await deliver(url, again.body, again.headers)).toEqual({ status: 200, json: { outcome: 'duplicate', id: n.event.id } });
    expect(runs).toBe(1);
  });

  it('answers 2xx only after the handler finished', async () => {
    const order: string[] = [];
    const url = await serve(async () => {
      await new Promise((r) => setTimeout(r, 150)); // a slow handler is the case under test: the answer must wait for it
      order.push('handler finished');
    });
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const answer = await deliver(url, n.body, n.headers);
    order.push(`answered ${answer.status}`);
    expect(order).toEqual(['handler finished', 'answered 200']);
  });

  it('answers 500 when the handler throws and runs it again on the retry (the claim is released)', async () => {
    let calls = 0;
    const url = await serve(() => {
      calls += 1;
      if (calls === 1) throw new Error('database down');
    });
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const first = await deliver(url, n.body, n.headers);
    expect(first).toEqual({ status: 500, json: { outcome: 'failed', id: n.event.id, message: 'the notification handler failed; retry later' } });
    expect((await deliver(url, n.body, n.headers)).json.outcome).toBe('processed');
    expect((await deliver(url, n.body, n.headers)).json.outcome).toBe('duplicate');
    expect(calls).toBe(2);
  });

  it('runs the handler once when 20 deliveries of one event arrive at the same time; the others are told to retry (409) or acknowledged', async () => {
    let runs = 0;
    const url = await serve(async () => {
      runs += 1;
      await new Promise((r) => setTimeout(r, 50)); // a handler that takes a while: the other deliveries arrive while it runs
    });
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(url, n.body, n.headers)));
    expect(runs).toBe(1);
    expect(answers.filter((a) => a.json.outcome === 'processed')).toHaveLength(1);
    expect(
      answers.every((a) => a.json.outcome === 'processed' || (a.status === 409 && a.json.outcome === 'in-progress') || a.json.outcome === 'duplicate'),
    ).toBe(true);
    expect((await deliver(url, n.body, n.headers)).json.outcome).toBe('duplicate');
  });

  it('with the file store, a restarted receiver does not run the handler again for an event it handled', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gw-notify-')), 'seen', 'events.log');
    let runs = 0;
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const first = await serve(() => void (runs += 1), createFileDedupeStore(path));
    expect((await deliver(first, n.body, n.headers)).json.outcome).toBe('processed');
    const restarted = await serve(() => void (runs += 1), createFileDedupeStore(path));
    expect((await deliver(restarted, n.body, n.headers)).json.outcome).toBe('duplicate');
    expect(runs).toBe(1);
  });
});
