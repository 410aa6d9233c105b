// One contract, two stores: the file journal (the embedded default) and the PostgreSQL ledger give every order the
// same outcome, settle unanswered requests by query without sending twice, finish a stopped batch on resume, and keep
// card data out of what they store.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxReconciler, startSandbox, type Sandbox } from '@gw/sandbox';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BatchInterruptedError, newBatchId, resumeBatch, runBatch, type BatchResult, type BatchSettings } from '../src/index.ts';
import { authorisedOrders, clientFor, indexesOf } from './harness.ts';
import { freshDatabase } from './pg/database.ts';

let sandbox: Sandbox;
let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterEach(() => sandbox.faults.setRules({}));
afterAll(async () => {
  await db.drop();
});

type Orders = readonly Record<string, unknown>[];
interface Store {
  readonly name: string;
  /** Settings naming a new place for one batch, and what stays the same to resume it. */
  place(): Record<string, unknown>;
  /** Everything the store holds, as text. */
  dump(place: Record<string, unknown>): Promise<string>;
}

const stores: Store[] = [
  {
    name: 'file journal',
    place: () => ({ journal: join(mkdtempSync(join(tmpdir(), 'gw-contract-')), 'journal.jsonl') }),
    dump: async (place) => readFileSync(place.journal as string, 'utf8'),
  },
  {
    name: 'PostgreSQL ledger',
    place: () => ({ ledger: db.url, batch: newBatchId() }),
    dump: async () => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      // Every table of the ledger, read from the catalog: one added later is dumped too.
      const tables = (
        await client.query<{ name: string }>(
          "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'gw\\_%' ORDER BY 1",
        )
      ).rows.map((r) => r.name);
      expect(tables).toContain('gw_batch_result');
      const rows: pg.QueryResult[] = [];
      for (const t of tables) rows.push(await client.query(`SELECT * FROM ${t}`));
      await client.end();
      return JSON.stringify(rows.map((r) => r.rows));
    },
  },
];

const CARD = '4000056655665556';

function run(place: Record<string, unknown>, orders: Orders, extra: Partial<BatchSettings> = {}): Promise<BatchResult> {
  return runBatch({ client: clientFor(sandbox), operation: 'capture', orders: orders as never, reconcile: sandboxReconciler, ...place, ...extra });
}

for (const store of stores) {
  describe(`the ${store.name}`, () => {
    // A sandbox of its own: sockets the fault test reset are not met by the other store's tests.
    beforeAll(async () => {
      sandbox = await startSandbox({ seed: 5 });
    });
    afterAll(() => sandbox.stop());

    it('gives every input order one outcome: captured, duplicate, invalid and card-carrying orders alike', async () => {
      const [a, b, c] = await authorisedOrders(sandbox, 3, '11.00');
      const orders: Orders = [a!, { ...b! }, { ...a! }, { ...c!, amount: 'ten' }, { ...c!, card: CARD, security_code: '737' }];
      const place = store.place();
      const result = await run(place, orders);
      expect(result.outcomes.map((o) => o.kind)).toEqual(['succeeded', 'succeeded', 'rejected', 'rejected', 'rejected']);
      expect(result.outcomes[2]!.reason).toMatch(/duplicate of input order #0/);
      expect(result.outcomes[3]!.problems!.map((p) => p.field)).toContain('amount');
      expect(result.outcomes[4]!.problems!.map((p) => p.field).sort()).toEqual(['card', 'security_code']);
      const stored = await store.dump(place);
      // The dump holds the outcomes (the gateway's answer for the captured order), so card data there would show.
      expect(stored).toContain('capture_status');
      expect(stored).not.toContain(CARD);
      expect(stored).not.toMatch(/\b737\b/);
    });

    it('one order identity: one transaction_id under two order_nos is one order, one order_no under two transaction_ids two; a refund in three spellings is one', async () => {
      const [a, b] = await authorisedOrders(sandbox, 2, '14.00');
      // b's merchant order number under another transaction id (the sandbox keeps order numbers unique, so that
      // transaction is unknown to it): another order, which is sent and answered for itself, not taken for b.
      const c = { ...b!, transaction_id: `${b!.transaction_id}9` };
      const orders: Orders = [a!, { ...a!, order_no: `${a!.order_no}-again` }, b!, c];
      const result = await run(store.place(), orders);
      expect(result.outcomes.map((o) => o.kind)).toEqual(['succeeded', 'rejected', 'succeeded', 'failed']);
      expect(result.outcomes[1]!.reason).toBe(`duplicate of input order #0 (the same transaction_id ${JSON.stringify(a!.transaction_id)}): not sent twice`);
      expect(result.outcomes[3]!.result).toMatchObject({ transaction_id: c.transaction_id, capture_status: expect.not.stringMatching(/^1$/) });
      for (const o of [a!, b!]) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id)).toBe(1);

      const refund = { ...a!, refund_amount: '3.00', refund_reason: 'damaged' };
      const refunds: Orders = [refund, { ...refund, refund_amount: '3' }, { ...refund, refund_amount: '03.0' }, { ...refund, refund_amount: '4.00' }];
      const refunded = await runBatch({ client: clientFor(sandbox), operation: 'refund', orders: refunds as never, ...store.place() });
      expect(refunded.outcomes.map((o) => o.kind)).toEqual(['succeeded', 'rejected', 'rejected', 'succeeded']);
      expect(refunded.outcomes[2]!.reason).toMatch(/^duplicate of input order #0 \(the same transaction_id .*, refund_amount and refund_reason\)/);
      expect(
        sandbox.state.orders
          .get(a!.transaction_id)!
          .refunds.map((r) => r.amountMinor)
          .sort(),
      ).toEqual([300n, 400n]);
    });

    it('a batch stopped part way is finished by resume: one outcome each, nothing captured twice', async () => {
      const orders = await authorisedOrders(sandbox, 400, '13.00');
      const place = store.place();
      const stop = new AbortController();
      let outcomes = 0;
      const first = await run(place, orders, { concurrency: 2, onOutcome: () => ++outcomes === 100 && stop.abort(), signal: stop.signal }).catch(
        (e: unknown) => e,
      );
      expect(first).toBeInstanceOf(BatchInterruptedError);
      // Says how to finish it, in its own store's words: never that it cannot be resumed.
      expect((first as Error).message).toMatch(place.journal ? /resumeBatch .* and the journal / : new RegExp(`the ledger's batch ${String(place.batch)} `));
      const resumed = await resumeBatch({ client: clientFor(sandbox), orders: orders as never, reconcile: sandboxReconciler, ...place });
      expect(indexesOf(resumed.outcomes)).toEqual(orders.map((_, i) => i));
      expect(resumed.counts.succeeded).toBe(400);
      for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id as string)).toBe(1);
    });
    it('settles requests that got no answer by query: applied ones succeed once, none is sent blindly again', async () => {
      const orders = await authorisedOrders(sandbox, 400, '12.00');
      sandbox.faults.setRules({ '/v1/capture': { resetAfter: 0.5 } });
      const result = await run(store.place(), orders, { concurrency: 4 });
      sandbox.faults.setRules({});
      expect(indexesOf(result.outcomes)).toEqual(orders.map((_, i) => i));
      expect(result.counts.succeeded).toBe(400);
      expect(result.outcomes.filter((o) => o.reconciled).length).toBeGreaterThan(0);
      for (const o of orders) expect(sandbox.state.appliedCounts('capture').get(o.transaction_id as string)).toBe(1);
    });
  });
}
