import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@gw/client';
import type { NotificationEvent } from '@gw/notifications';
import { signedNotification } from '@gw/notifications/testing';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { until as waitUntil } from '@gw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.ts';
import { capturedIo, gwStarted } from './io.ts';
import { merchantApp } from './merchant-app.ts';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

/** The merchant's app: the @gw/notifications receiver on real HTTP. */
async function app(): Promise<{ url: string; handled: NotificationEvent[] }> {
  const started = await merchantApp(SANDBOX_DEFAULT_SECRET);
  servers.push(started.server);
  return started;
}

/** Waits (10 s at most) until `check` holds. */
const until = (check: () => boolean) => waitUntil(check, 10_000);

/** An application that answers every notification 200; `forwarded()` counts what reached it. Closed after each test. */
async function acceptingTarget(): Promise<{ url: string; forwarded: () => number }> {
  let forwarded = 0;
  const target = createServer((req, res) => {
    forwarded += 1;
    req.resume();
    req.on('end', () => res.writeHead(200).end('{}'));
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  servers.push(target);
  return { url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/`, forwarded: () => forwarded };
}

describe('gw listen', () => {
  it("receives the sandbox's notifications, prints kind, id and verification, forwards them to the app unchanged", async () => {
    const target = await app();
    const {
      c,
      url: listenUrl,
      exit: running,
    } = await gwStarted(['listen', '--forward-to', target.url, '--port', '0', '--sandbox-defaults'], /receiving on (\S+),/);

    await using sandbox = await startSandbox();
    const client = createClient({
      baseUrl: sandbox.url,
      merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
      accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
      signer: createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET }),
    });
    await client.authoriseCard({
      order_no: 'L-1',
      currency: 'USD',
      amount: '10.00',
      card: '4111111111111111',
      expiration_month: '12',
      expiration_year: '2030',
      security_code: '123',
      notify_url: listenUrl,
    });
    await sandbox.notificationsIdle();
    await client.close();
    const eventId = sandbox.state.notifications[0]!.eventId;
    await until(() => c.out().includes(eventId));
    expect(c.out()).toMatch(new RegExp(`payment\\.authorised  ${eventId}  verified  forwarded -> 200`));
    expect(target.handled.map((e) => e.id)).toEqual([eventId]);

    // Signed with another secret: printed as refused, forwarded anyway, and the app refuses it too.
    const forged = await signedNotification({
      event: { kind: 'payment.authorised', operation: 'authoriseCard', data: { order_no: 'F-1' } },
      secret: 'not-the-secret',
    });
    const answer = await fetch(listenUrl, { method: 'POST', headers: forged.headers, body: forged.body });
    expect(answer.status).toBe(400);
    await until(() => c.out().includes('refused'));
    expect(c.out()).toContain('refused: signature-mismatch (GW_SIGNATURE)  forwarded -> 400');
    expect(target.handled).toHaveLength(1);

    c.signals.emit('SIGINT');
    expect(await running).toBe(0);
    expect(c.out() + c.err()).not.toContain(SANDBOX_DEFAULT_SECRET);
    expect(c.out() + c.err()).not.toContain('4111111111111111');
  });

  it('says plainly when the app cannot be reached, and answers 502 so the sender retries', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((r) => closed.close(r));
    const {
      c,
      url: listenUrl,
      exit: running,
    } = await gwStarted(['listen', '--forward-to', deadUrl, '--port', '0', '--secret-env', 'GW_TEST_SECRET'], /receiving on (\S+),/, {
      env: { GW_TEST_SECRET: 's3' },
    });
    const n = await signedNotification({ event: { kind: 'payout.completed', operation: 'payout', data: { status: 'COMPLETED' } }, secret: 's3' });
    const answer = await fetch(listenUrl, { method: 'POST', headers: n.headers, body: n.body });
    expect(answer.status).toBe(502);
    expect(await answer.json()).toMatchObject({ outcome: 'forward-failed' });
    await until(() => c.out().includes('forward failed'));
    expect(c.out()).toMatch(new RegExp(`payout\\.completed  ${n.event.id}  verified  forward failed: .*ECONNREFUSED.*answered 502, the sender will retry`));
    c.signals.emit('SIGINT');
    expect(await running).toBe(0);
  });

  it('with --skip-duplicates and --seen-file, an event the app acknowledged is not forwarded again, even after a restart', async () => {
    const target = await acceptingTarget();
    const targetUrl = target.url;
    const seenFile = join(mkdtempSync(join(tmpdir(), 'gw-listen-')), 'seen.log');
    const n = await signedNotification({
      event: { kind: 'payment.authorised', operation: 'authoriseCard', data: { order_no: 'D-1' } },
      secret: SANDBOX_DEFAULT_SECRET,
    });
    for (let run = 0; run < 2; run++) {
      const {
        c,
        url: listenUrl,
        exit: running,
      } = await gwStarted(
        ['listen', '--forward-to', targetUrl, '--port', '0', '--sandbox-defaults', '--skip-duplicates', '--seen-file', seenFile],
        /receiving on (\S+),/,
      );
      for (let i = 0; i < 2; i++) expect((await fetch(listenUrl, { method: 'POST', headers: n.headers, body: n.body })).status).toBe(200);
      await until(
        () =>
          c
            .out()
            .split('\n')
            .filter((l) => l.includes(n.event.id)).length === 2,
      );
      expect(c.out()).toContain('duplicate of an event already forwarded: not forwarded, answered 200');
      c.signals.emit('SIGINT');
      expect(await running).toBe(0);
    }
    expect(target.forwarded()).toBe(1);
  });

  it('with --seen-file on a full disk, an event the app took is still forwarded once: every retry answered 200, the failure said', async (context) => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-listen-full-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    } catch {
      context.skip('mounting a small tmpfs needs root');
    }
    try {
      const { bavail, bsize } = statfsSync(dir);
      writeFileSync(join(dir, 'filler'), Buffer.alloc(bavail * bsize));
      const target = await acceptingTarget();
      const n = await signedNotification({
        event: { kind: 'payment.authorised', operation: 'authoriseCard', data: { order_no: 'FULL-1' } },
        secret: SANDBOX_DEFAULT_SECRET,
      });
      const {
        c,
        url: listenUrl,
        exit: running,
      } = await gwStarted(
        ['listen', '--forward-to', target.url, '--port', '0', '--sandbox-defaults', '--skip-duplicates', '--seen-file', join(dir, 'seen.log')],
        /receiving on (\S+),/,
      );
      for (let i = 0; i < 3; i++) expect((await fetch(listenUrl, { method: 'POST', headers: n.headers, body: n.body })).status).toBe(200);
      await until(
        () =>
          c
            .out()
            .split('\n')
            .filter((l) => l.includes(n.event.id)).length === 3,
      );
      expect(target.forwarded()).toBe(1);
      expect(c.out()).toContain('the seen-file could not record it: ENOSPC');
      c.signals.emit('SIGINT');
      expect(await running).toBe(0);
    } finally {
      execFileSync('umount', [dir], { stdio: 'ignore' });
    }
  });

  it('refuses to start without a secret, with a usage status', async () => {
    const c = capturedIo();
    expect(await runCli(['listen', '--forward-to', 'http://127.0.0.1:9/', '--port', '0'], c.io, c.signals)).toBe(2);
    expect(c.err()).toContain('no secret to verify with');
  });
});

describe('gw trigger', () => {
  it('makes the sandbox send a notification of the kind asked, received verified through gw listen', async () => {
    const target = await app();
    const {
      c,
      url: listenUrl,
      exit: running,
    } = await gwStarted(['listen', '--forward-to', target.url, '--port', '0', '--sandbox-defaults'], /receiving on (\S+),/);
    await using sandbox = await startSandbox();
    // cancelled and expired: a pending alternative-method payment settled through the control API, as an operator would.
    const kinds = ['payment.authorised', 'payment.declined', 'payment.cancelled', 'payment.expired', 'payout.completed', 'payout.failed'];
    for (const kind of kinds) {
      const t = capturedIo();
      expect(await runCli(['trigger', kind, '--notify-url', listenUrl, '--base-url', sandbox.url, '--sandbox-defaults'], t.io, t.signals)).toBe(0);
      expect(t.out()).toContain(`(${kind})`);
    }
    await sandbox.notificationsIdle();
    await until(() => target.handled.length === kinds.length);
    expect(target.handled.map((e) => e.kind).sort()).toEqual([...kinds].sort());
    const settled = [...sandbox.state.orders.values()].filter((o) => o.state === 'cancelled' || o.state === 'expired');
    expect(settled.map((o) => [o.state, o.history.at(-1)!.by]).sort()).toEqual([
      ['cancelled', 'operator'],
      ['expired', 'operator'],
    ]);
    expect([...sandbox.state.payouts.values()].map((p) => p.status).sort()).toEqual(['COMPLETED', 'FAILED']);
    const refused = capturedIo();
    expect(
      await runCli(['trigger', 'payout.lost', '--notify-url', listenUrl, '--base-url', sandbox.url, '--sandbox-defaults'], refused.io, refused.signals),
    ).toBe(2);
    expect(refused.err()).toContain(
      'unknown kind payout.lost; trigger supports payment.authorised, payment.declined, payout.completed, payout.failed, payment.cancelled, payment.expired, payment.captured, payment.refunded, payment.reviewed, subscription.cancelled',
    );
    c.signals.emit('SIGINT');
    expect(await running).toBe(0);
  });
});

describe('gw notifications list / resend', () => {
  it('lists the deliveries of a running sandbox, and resend makes a new delivery of the same event, handled once', async () => {
    const target = await app();
    await using sandbox = await startSandbox({ notify: { baseDelayMs: 5 } });
    const client = createClient({
      baseUrl: sandbox.url,
      merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
      accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
      signer: createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET }),
    });
    await client.authoriseCard({
      order_no: 'N-1',
      currency: 'USD',
      amount: '10.00',
      card: '4111111111111111',
      expiration_month: '12',
      expiration_year: '2030',
      security_code: '123',
      notify_url: target.url,
    });
    await client.close();
    await sandbox.notificationsIdle();
    const eventId = sandbox.state.notifications[0]!.eventId;

    const list = capturedIo();
    expect(await runCli(['notifications', 'list', '--sandbox-url', sandbox.url], list.io, list.signals)).toBe(0);
    const row = list
      .out()
      .split('\n')
      .find((l) => l.includes(eventId))!;
    expect(
      row
        .split(/\s{2,}|\s*\|\s*/)
        .map((c) => c.trim())
        .filter(Boolean)
        .slice(0, 6),
    ).toEqual(['1', 'payment.authorised', eventId, 'yes', '1', '200']);

    const resend = capturedIo();
    expect(await runCli(['notifications', 'resend', '1', '--sandbox-url', sandbox.url], resend.io, resend.signals)).toBe(0);
    expect(resend.out()).toContain(`resent delivery 1 as new delivery 2 of event ${eventId} (payment.authorised)`);
    await sandbox.notificationsIdle();
    expect(sandbox.state.notifications.map((d) => [d.id, d.eventId, d.resendOf, d.delivered])).toEqual([
      [1, eventId, null, true],
      [2, eventId, 1, true],
    ]);
    expect(target.handled.map((e) => e.id)).toEqual([eventId]); // delivered twice, handled once

    const json = capturedIo();
    expect(await runCli(['notifications', 'list', '--json', '--sandbox-url', sandbox.url], json.io, json.signals)).toBe(0);
    expect(JSON.parse(json.out()).notifications.map((d: { id: number; resendOf: number | null }) => [d.id, d.resendOf])).toEqual([
      [2, 1],
      [1, null],
    ]);

    const missing = capturedIo();
    expect(await runCli(['notifications', 'resend', '99', '--sandbox-url', sandbox.url], missing.io, missing.signals)).toBe(5);
    expect(missing.err()).toContain('answered HTTP 404 (not_found:');
  });

  it('reaches a sandbox locked with a control token with --control-token-env, and says how when it is missing', async () => {
    const TOKEN = 'locked-sandbox-control-token-31';
    await using sandbox = await startSandbox({ controlToken: TOKEN });
    const without = capturedIo();
    expect(await runCli(['notifications', 'list', '--sandbox-url', sandbox.url], without.io, without.signals)).toBe(5);
    expect(without.err()).toContain('--control-token-env NAME');
    const locked = capturedIo({ env: { TEAM_CONTROL: TOKEN } });
    expect(
      await runCli(['notifications', 'list', '--json', '--sandbox-url', sandbox.url, '--control-token-env', 'TEAM_CONTROL'], locked.io, locked.signals),
    ).toBe(0);
    expect(JSON.parse(locked.out())).toMatchObject({ notifications: [] });
    expect(locked.out() + locked.err()).not.toContain(TOKEN);
  });

  it('says plainly that a sandbox without the control API cannot list or resend', async () => {
    await using sandbox = await startSandbox({ control: false });
    const list = capturedIo();
    expect(await runCli(['notifications', 'list', '--sandbox-url', sandbox.url], list.io, list.signals)).toBe(5);
    expect(list.err()).toContain('no control API');
    const resend = capturedIo();
    expect(await runCli(['notifications', 'resend', '1', '--sandbox-url', sandbox.url], resend.io, resend.signals)).toBe(5);
    expect(resend.err()).toContain('/sandbox/api/notifications/1/resend answered 404');
  });
});
