// A chunk goes to the gateway only under its send guard (the batch's time limit and the lease check at the write).
// A wrapper around the client that drops a call's options is not a BatchClient (a type error: its answers are not
// vouched for by the guard), and one that gets past the types (JavaScript, a cast) stops the batch at its first send:
// nothing more is sent, and the resume queries the chunk that went out unguarded, so every order is applied once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxReconciler, type Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { newBatchId, resumeBatch, runBatch, SendGuardSkippedError, type BatchClient } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';
import { sandboxAndDatabaseForFile } from './pg/database.ts';

let sandbox: Sandbox;
let ledger: string;
sandboxAndDatabaseForFile((started, url) => {
  sandbox = started;
  ledger = url;
});

const captured = (orders: readonly { transaction_id: string }[]) => orders.map((o) => sandbox.state.appliedCounts('capture').get(o.transaction_id) ?? 0);

/** The client with a capture that drops its second argument, as a wrapper adding logging might. */
function dropping(real: BatchClient) {
  return { ...real, capture: (request: Parameters<BatchClient['capture']>[0]) => real.capture(request) };
}

describe('a client wrapper that drops the per-call options', () => {
  it('is not a BatchClient; given anyway, its first send stops a journal batch, and the resume queries that chunk: each order captured once', async () => {
    const orders = await authorisedOrders(sandbox, 150, '16.00');
    const real = clientFor(sandbox);
    const journal = join(mkdtempSync(join(tmpdir(), 'gw-guard-')), 'journal.jsonl');
    // @ts-expect-error a capture that drops the call's options answers without the guard's voucher: not a BatchClient
    const stopped = await runBatch({ client: dropping(real), operation: 'capture', orders, journal, concurrency: 1 }).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(SendGuardSkippedError);
    expect(stopped).toMatchObject({ code: 'GW_INTERRUPTED', details: { chunk: 1 } });
    // The first chunk went out (unguarded) and stopped the batch: nothing after it.
    expect(captured(orders)).toEqual(orders.map((_, i) => (i < 50 ? 1 : 0)));

    const resumed = await resumeBatch({ client: real, journal, orders, reconcile: sandboxReconciler });
    expect(indexesOf(resumed.outcomes)).toEqual(orders.map((_, i) => i));
    expect(resumed.counts.succeeded).toBe(150);
    expect(resumed.outcomes.slice(0, 50).every((o) => o.reconciled)).toBe(true);
    expect(captured(orders)).toEqual(orders.map(() => 1));
  });

  it('with a ledger: the same stop, and the chunk, left leased, is taken over and queried when its lease ends: each order captured once', async () => {
    const orders = await authorisedOrders(sandbox, 150, '17.00');
    const real = clientFor(sandbox);
    const place = { ledger: ledger, batch: newBatchId(), leaseMs: 1_500, timeoutMs: 1_000, sendMarginMs: 200 };
    const client = dropping(real) as unknown as BatchClient;
    const stopped = await runBatch({ client, operation: 'capture', orders, concurrency: 1, ...place }).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(SendGuardSkippedError);
    expect(captured(orders)).toEqual(orders.map((_, i) => (i < 50 ? 1 : 0)));

    const resumed = await resumeBatch({ client: real, orders, reconcile: sandboxReconciler, ...place });
    expect(indexesOf(resumed.outcomes)).toEqual(orders.map((_, i) => i));
    expect(resumed.counts.succeeded).toBe(150);
    expect(resumed.worker.takenOver).toBeGreaterThanOrEqual(1);
    expect(captured(orders)).toEqual(orders.map(() => 1));
  });

  it('a client that honours them (the real one, or a wrapper that hands each call its options) sends under the guard', async () => {
    const orders = await authorisedOrders(sandbox, 60, '18.00');
    const real = clientFor(sandbox);
    const seen: number[] = [];
    const forwarding = {
      ...real,
      capture: ((request: Parameters<BatchClient['capture']>[0], call: Parameters<BatchClient['capture']>[1]) => {
        seen.push(call?.timeoutMs ?? -1);
        return real.capture(request, call as never);
      }) as BatchClient['capture'],
    };
    const result = await runBatch({ client: forwarding, operation: 'capture', orders, timeoutMs: 4_321 });
    expect(result.counts.succeeded).toBe(60);
    expect(seen).toEqual([4_321, 4_321]);
  });
});
