import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { stringify } from 'csv-stringify';
import { BatchJournal, withJournaledOrder } from './journal/batch-journal.ts';
import type { OrderOutcome } from './outcome.ts';

/** Every final outcome recorded in a journal, in input order (the source for exports of huge batches). */
export async function outcomesFromJournal(path: string): Promise<OrderOutcome[]> {
  const byIndex = new Map<number, OrderOutcome>();
  const intentOrders = new Map<number, Record<string, unknown>>();
  for await (const entry of BatchJournal.read(path)) {
    if (entry.type === 'intent') for (const { index, order } of entry.orders) intentOrders.set(index, order);
    if (entry.type === 'outcomes') for (const outcome of entry.outcomes) byIndex.set(outcome.index, withJournaledOrder(outcome, intentOrders));
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** Writes outcomes as JSONL, one object per order. */
export async function writeResultsJsonl(outcomes: Iterable<OrderOutcome>, path: string): Promise<void> {
  const out = createWriteStream(path, 'utf8');
  for (const outcome of outcomes) {
    if (!out.write(JSON.stringify(outcome) + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** The CSV columns: the input's identifying fields, the outcome, and why. */
export const RESULT_COLUMNS = ['index', 'transaction_id', 'order_no', 'outcome', 'status', 'reason', 'reconciled', 'reconcile'] as const;

/** Writes outcomes as CSV with a header row (RESULT_COLUMNS). */
export async function writeResultsCsv(outcomes: Iterable<OrderOutcome>, path: string): Promise<void> {
  const csv = stringify({ header: true, columns: [...RESULT_COLUMNS] });
  const out = createWriteStream(path, 'utf8');
  csv.pipe(out);
  for (const o of outcomes) {
    const result = (o.result ?? {}) as Record<string, unknown>;
    const status = Object.entries(result).find(([k]) => k.endsWith('_status') || k === 'query_result')?.[1];
    const row = [
      o.index,
      o.order.transaction_id ?? '',
      o.order.order_no ?? '',
      o.kind,
      status ?? '',
      o.reason ?? '',
      o.reconciled ? 'yes' : '',
      o.reconcile ?? '',
    ];
    if (!csv.write(row)) await once(csv, 'drain');
  }
  csv.end();
  await once(out, 'finish');
}
