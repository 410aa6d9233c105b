import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCardRespon } from '@gw/xml-codec';
import { SandboxStateFileError, startSandbox, type Sandbox } from '../src/index.ts';
import { api, receiver, until } from './control-harness.ts';
import { cardPayment, send } from './harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function everything(sandbox: Sandbox) {
  const lists = await Promise.all(['orders?limit=10000', 'subscriptions', 'payouts', 'refunds', 'notifications'].map((p) => api(sandbox, 'GET', p)));
  const orders = await Promise.all(lists[0]!.json.orders.map((o: { transactionId: string }) => api(sandbox, 'GET', `orders/${o.transactionId}`)));
  return {
    lists: lists.map((l) => l.json),
    orders: orders.map((o) => o.json),
    clock: (await api(sandbox, 'GET', 'clock')).json.offsetMs,
    ledger: sandbox.state.ledger,
  };
}

describe('stateFile (gw sandbox --state)', () => {
  it('keeps orders with history and refunds, subscriptions, payouts, notifications with attempts, the ledger and id sequences across a restart', async () => {
    const file = join(dir, 'restart.sqlite');
    const hook = await receiver([503]);
    let first: Awaited<ReturnType<typeof everything>>;
    let paid: string;
    try {
      const a = await startSandbox({ stateFile: file, notify: { baseDelayMs: 5 } });
      const payment = cardPayment({ amount: '40.00', notify_url: hook.url, subscription: { contract_name: 'Gold', interval: 'week' } });
      paid = decodeCardRespon((await send(a, 'authoriseCard', payment)).text).transaction_id!;
      const element = { transaction_id: paid, order_no: payment.order_no, currency: 'USD', amount: '40.00' };
      await send(a, 'capture', { capture_orders: [element] });
      await send(a, 'refund', { refund_orders: [{ ...element, refund_amount: '15.50', refund_reason: 'late' }] });
      await send(a, 'payout', { request_id: 'payout-1', payment_amount: '3.00', payment_currency: 'USD' });
      await a.notificationsIdle();
      await api(a, 'POST', 'clock/advance', { seconds: 60 });
      first = await everything(a);
      expect(first.orders[0].order.history).toHaveLength(4);
      // The payment, its capture and its refund are notified; the first delivery to arrive was answered 503, then retried.
      const deliveries: { eventKind: string; attempts: { status: number }[] }[] = first.lists[4].notifications;
      expect(deliveries.map((d) => d.eventKind).sort()).toEqual(['payment.authorised', 'payment.captured', 'payment.refunded']);
      expect(deliveries.flatMap((d) => d.attempts.map((x) => x.status)).sort()).toEqual([200, 200, 200, 503]);
      await a.stop();
    } finally {
      await hook.close();
    }

    await using b = await startSandbox({ stateFile: file });
    expect(await everything(b)).toEqual(first);
    const query = await send(b, 'query', { transaction_id: paid });
    expect(query.json.orders_list[0]).toMatchObject({ transaction_id: paid });
    const again = await send(b, 'capture', {
      capture_orders: [{ transaction_id: paid, order_no: first.orders[0].order.orderNo, currency: 'USD', amount: '40.00' }],
    });
    expect(again.json.capture_orders[0].error_message).toMatch(/^E205:/);
    const next = decodeCardRespon((await send(b, 'authoriseCard', cardPayment())).text).transaction_id!;
    const seq = (id: string) => Number(id.slice(-8));
    const used = [paid, ...first.lists[3].refunds.map((r: { reference: string }) => r.reference)];
    expect(seq(next)).toBeGreaterThan(Math.max(...used.map(seq)));
  });

  it('goes on delivering a notification that was neither delivered nor out of attempts when the sandbox stopped', async () => {
    const file = join(dir, 'pending.sqlite');
    const hook = await receiver([500]);
    try {
      const a = await startSandbox({ stateFile: file, notify: { baseDelayMs: 60_000, attempts: 3 } });
      await send(a, 'authoriseCard', cardPayment({ notify_url: hook.url }));
      await until(() => a.state.notifications[0]?.attempts.length === 1);
      await a.stop();
      await using b = await startSandbox({ stateFile: file, notify: { baseDelayMs: 5, attempts: 3 } });
      await until(() => b.state.notifications[0]?.delivered === true);
      expect(b.state.notifications[0]!.attempts.map((x) => x.status)).toEqual([500, 200]);
      expect(hook.bodies[1]).toBe(hook.bodies[0]);
    } finally {
      await hook.close();
    }
  });

  it("refuses a corrupt file, another program's database and a file in use, naming the file and leaving it untouched", async () => {
    const corrupt = join(dir, 'corrupt.sqlite');
    writeFileSync(corrupt, 'this is not a database, it is a shopping list\n'.repeat(200));
    const before = readFileSync(corrupt);
    const error = await startSandbox({ stateFile: corrupt }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxStateFileError);
    expect(error).toMatchObject({ code: 'GW_CONFIG', details: { file: corrupt } });
    expect((error as Error).message).toContain(corrupt);
    expect((error as Error).message).toMatch(/another path|move this file/);
    expect(readFileSync(corrupt).equals(before)).toBe(true);

    const foreign = join(dir, 'foreign.sqlite');
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(foreign);
    db.exec('CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)');
    db.close();
    await expect(startSandbox({ stateFile: foreign })).rejects.toMatchObject({
      name: 'SandboxStateFileError',
      details: { reason: expect.stringContaining('another program') },
    });

    const shared = join(dir, 'shared.sqlite');
    await using a = await startSandbox({ stateFile: shared });
    await expect(startSandbox({ stateFile: shared })).rejects.toMatchObject({
      name: 'SandboxStateFileError',
      details: { reason: expect.stringContaining('another sandbox') },
    });
    expect((await api(a, 'GET', 'orders')).status).toBe(200);
  });

  it('empties the file on reset', async () => {
    const file = join(dir, 'reset.sqlite');
    const a = await startSandbox({ stateFile: file });
    await send(a, 'authoriseCard', cardPayment());
    await api(a, 'POST', 'reset');
    await a.stop();
    await using b = await startSandbox({ stateFile: file });
    expect((await api(b, 'GET', 'orders')).json.orders).toEqual([]);
    expect(b.state.ledger).toEqual([]);
  });
});
