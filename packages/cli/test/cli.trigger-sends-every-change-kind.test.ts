// gw trigger for the change kinds: real operations through @gw/client against a real sandbox (an approved payment,
// then capture / refund / review / cancelSubscription), the notifications received by a @gw/notifications receiver.
import type { Server } from 'node:http';
import { SANDBOX_DEFAULT_SECRET, startSandbox } from '@gw/sandbox';
import { until } from '@gw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.ts';
import { capturedIo } from './io.ts';
import { merchantApp } from './merchant-app.ts';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

describe('gw trigger <change kind>', () => {
  it('captured, refunded, reviewed and subscription cancelled: each preceded by its payment, each received and typed', async () => {
    const app = await merchantApp(SANDBOX_DEFAULT_SECRET);
    servers.push(app.server);
    await using sandbox = await startSandbox();
    const kinds = ['payment.captured', 'payment.refunded', 'payment.reviewed', 'subscription.cancelled'];
    for (const kind of kinds) {
      const t = capturedIo();
      expect(await runCli(['trigger', kind, '--notify-url', app.url, '--base-url', sandbox.url, '--sandbox-defaults'], t.io, t.signals)).toBe(0);
      expect(t.out()).toContain(`(payment.authorised, then ${kind})`);
    }
    await sandbox.notificationsIdle();
    await until(() => app.handled.length === 9, 10_000);
    const changes = app.handled.filter((e) => e.kind !== 'payment.authorised');
    expect(app.handled.filter((e) => e.kind === 'payment.authorised')).toHaveLength(4);
    expect(changes.map((e) => `${e.operation} ${e.kind}`)).toEqual([
      'capture payment.captured',
      'capture payment.captured' /* the refunded kind captures first */,
      'refund payment.refunded',
      'review payment.reviewed',
      'cancelSubscription subscription.cancelled',
    ]);
    const refunded = app.handled.find((e) => e.kind === 'payment.refunded');
    expect(refunded?.kind === 'payment.refunded' && refunded.data).toMatchObject({ refund_state: 'full', refund_amount: '10.00', refunded_amount: '10.00' });
    const cancelled = app.handled.find((e) => e.kind === 'subscription.cancelled');
    expect(cancelled?.kind === 'subscription.cancelled' && cancelled.data).toMatchObject({ contract_name: 'gw-trigger', cancel_status: '1' });
    expect([...sandbox.state.subscriptions.values()].map((s) => s.status)).toEqual(['Inactived']);
  });

  it('lists the change kinds among those it supports', async () => {
    const t = capturedIo();
    expect(
      await runCli(
        ['trigger', 'payment.chargeback', '--notify-url', 'http://127.0.0.1:9/', '--base-url', 'http://127.0.0.1:9', '--sandbox-defaults'],
        t.io,
        t.signals,
      ),
    ).toBe(2);
    for (const kind of ['payment.captured', 'payment.refunded', 'payment.reviewed', 'subscription.cancelled']) expect(t.err()).toContain(kind);
  });
});
