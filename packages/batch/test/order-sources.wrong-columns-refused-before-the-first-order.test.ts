// With `operation`, the order sources check the columns (the CSV header row, the first JSONL record's members) against
// the operation's order element in the spec before giving the first order: every unknown column (with a close name)
// and a missing identifying column in one OrderColumnsError, never a cell value.
import { operations, querySelection, specSchemas } from '@gw/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BATCH_OPERATIONS,
  OrderColumnsError,
  orderColumnProblems,
  orderColumnsOf,
  ordersFromCsv,
  ordersFromJsonl,
  type BatchOperation,
  type OrderColumnsDetails,
} from '../src/index.ts';

const bytes = (text: string) => [new TextEncoder().encode(text)];

/** Every order the source gives, or the error it throws with the orders given before it. */
async function read(orders: AsyncIterable<Record<string, string>>): Promise<{ given: Record<string, string>[]; error: unknown }> {
  const given: Record<string, string>[] = [];
  try {
    for await (const order of orders) given.push(order);
    return { given, error: null };
  } catch (error) {
    return { given, error };
  }
}

/** The members of one element of the operation's order array, read straight from the spec's schemas (no list typed here). */
function elementMembersInSpec(operation: BatchOperation): string[] {
  const spec = operations[operation];
  if (spec.batch.separator !== null) return [...querySelection.fields];
  const defs = (specSchemas as unknown as { $defs: Record<string, { properties: Record<string, { items?: { $ref: string } }> }> }).$defs;
  const ref = defs[spec.requestSchema]!.properties[spec.batch.array]!.items!.$ref;
  return Object.keys(defs[ref.split('/').pop()!]!.properties);
}

describe('order columns checked before the first order', () => {
  it('a capture CSV with txn,order,currency,amount is refused before its first order: every problem, did-you-means, the expected columns, no cell value', async () => {
    const csv = 'txn,order,currency,amount\nT-CELL-1,O-CELL-1,USD,12.34\n';
    const { given, error } = await read(ordersFromCsv(bytes(csv), { name: 'orders.csv', operation: 'capture' }));
    expect(given).toEqual([]);
    expect(error).toBeInstanceOf(OrderColumnsError);
    const refused = error as OrderColumnsError;
    expect(refused.code).toBe('GW_VALIDATION');
    const details: OrderColumnsDetails = refused.details;
    expect(details).toMatchObject({ file: 'orders.csv', format: 'csv', line: 1, operation: 'capture', known: ['currency', 'amount'] });
    expect(details.unknown).toEqual([
      { column: 'txn', position: 1, suggestion: 'transaction_id' },
      { column: 'order', position: 2, suggestion: 'order_no' },
    ]);
    expect(details.missing).toEqual(['transaction_id', 'order_no']);
    expect(details.expected).toEqual(elementMembersInSpec('capture'));
    expect(refused.message).toContain('orders.csv, line 1');
    expect(refused.message).toContain('`txn` (did you mean `transaction_id`?)');
    expect(refused.message).toContain('`order` (did you mean `order_no`?)');
    expect(refused.message).toContain('add transaction_id or order_no');
    for (const column of details.expected) expect(refused.message).toContain(column);
    for (const cell of ['T-CELL-1', 'O-CELL-1', '12.34']) expect(JSON.stringify(refused.toJSON())).not.toContain(cell);
  });

  it('without operation, the same file is read as before', async () => {
    const { given, error } = await read(ordersFromCsv(bytes('txn,order,currency,amount\nT1,O1,USD,1.00\n'), { name: 'orders.csv' }));
    expect(error).toBeNull();
    expect(given).toEqual([{ txn: 'T1', order: 'O1', currency: 'USD', amount: '1.00' }]);
  });

  it('a JSONL whose first record has an unknown member is refused before its first order', async () => {
    const jsonl = '{"transaction_id":"T1","order_no":"O1","amout":"1.00"}\n{"transaction_id":"T2"}\n';
    const { given, error } = await read(ordersFromJsonl(bytes(jsonl), { name: 'orders.jsonl', operation: 'capture' }));
    expect(given).toEqual([]);
    expect(error).toBeInstanceOf(OrderColumnsError);
    const { details, message } = error as OrderColumnsError;
    expect(details).toMatchObject({
      file: 'orders.jsonl',
      format: 'jsonl',
      line: 1,
      missing: [],
      unknown: [{ column: 'amout', position: 3, suggestion: 'amount' }],
    });
    expect(message).toContain('`amout` (did you mean `amount`?)');
  });

  it('a JSONL record after a blank first line is checked at its own line', async () => {
    const { error } = await read(ordersFromJsonl(bytes('\n{"order_number":"O1"}\n'), { name: 'orders.jsonl', operation: 'refund' }));
    expect((error as OrderColumnsError).details).toMatchObject({
      line: 2,
      unknown: [{ column: 'order_number', suggestion: 'order_no' }],
      missing: ['transaction_id', 'order_no'],
    });
  });

  it("every operation's expected columns are its order element's members in the spec; transaction_id and order_no identify an order", () => {
    for (const operation of BATCH_OPERATIONS) {
      const { columns, identifying, optional } = orderColumnsOf(operation);
      expect(columns).toEqual(elementMembersInSpec(operation));
      expect([...identifying].sort()).toEqual(['order_no', 'transaction_id']);
      expect([...identifying, ...optional].sort()).toEqual([...columns].sort());
    }
    expect(orderColumnsOf('refund').optional).toContain('refund_amount');
    expect(orderColumnsOf('review').optional).toContain('review_flag');
    expect(orderColumnsOf('query').optional).toEqual([]);
  });

  it("a query (a selection, not elements) reads the other operations' files as they are, and still refuses a column none of them has", async () => {
    const everyElementMember = new Set(BATCH_OPERATIONS.flatMap(elementMembersInSpec));
    const { columns, ignored } = orderColumnsOf('query');
    expect(new Set([...columns, ...ignored])).toEqual(everyElementMember);
    for (const operation of BATCH_OPERATIONS) if (operation !== 'query') expect(orderColumnsOf(operation).ignored).toEqual([]);
    const refundFile = `${orderColumnsOf('refund').columns.join(',')}\nT1,O1,USD,5.00,1.00,damaged\n`;
    expect((await read(ordersFromCsv(bytes(refundFile), { operation: 'query' }))).given).toHaveLength(1);
    const { error } = await read(ordersFromCsv(bytes('txn,order_no,amount\n'), { operation: 'query' }));
    expect((error as OrderColumnsError).details).toMatchObject({ unknown: [{ column: 'txn', suggestion: 'transaction_id' }], missing: [] });
    expect((error as OrderColumnsError).message).toContain('may be there and are not read');
  });

  it('a file with every column of its operation, or only one identifying column, gives its orders', async () => {
    for (const operation of BATCH_OPERATIONS) {
      const { columns } = orderColumnsOf(operation);
      const csv = `${columns.join(',')}\n${columns.map((_, i) => `v${i}`).join(',')}\n`;
      const { given, error } = await read(ordersFromCsv(bytes(csv), { operation }));
      expect(error).toBeNull();
      expect(given).toHaveLength(1);
      const jsonl = `${JSON.stringify({ order_no: 'O1' })}\n`;
      expect((await read(ordersFromJsonl(bytes(jsonl), { operation }))).given).toEqual([{ order_no: 'O1' }]);
    }
  });

  it('a file with neither identifying column is refused as missing them; a header-only file is checked too', async () => {
    const { error } = await read(ordersFromCsv(bytes('currency,amount,refund_amount\n'), { name: 'r.csv', operation: 'refund' }));
    expect((error as OrderColumnsError).details).toMatchObject({ unknown: [], missing: ['transaction_id', 'order_no'] });
    expect((error as OrderColumnsError).message).toContain('no column identifies the order: add transaction_id or order_no');
  });

  it('names spelled another way get the spec spelling as did-you-mean; card data columns are named as such', async () => {
    const { error } = await read(ordersFromCsv(bytes('transactionId,Order_No,refund_amt,reason,card\n'), { operation: 'refund' }));
    const { details, message } = error as OrderColumnsError;
    expect(details.unknown.map((u) => [u.column, u.suggestion])).toEqual([
      ['transactionId', 'transaction_id'],
      ['Order_No', 'order_no'],
      ['refund_amt', 'refund_amount'],
      ['reason', 'refund_reason'],
      ['card', null],
    ]);
    expect(message).toContain('`card` (card data, which a batch order never carries)');
  });

  it('a CSV without a header row (an order read as the header) is refused naming its columns by position only', async () => {
    const { given, error } = await read(ordersFromCsv(bytes('T-CELL-9,4111111111111111,USD,10.00\n'), { name: 'o.csv', operation: 'capture' }));
    expect(given).toEqual([]);
    const refused = error as OrderColumnsError;
    expect(refused.details.unknown.map((u) => u.column)).toEqual(['column 1', 'column 2', 'column 3', 'column 4']);
    expect(refused.message).toContain('the first line may be an order rather than the header row');
    for (const cell of ['T-CELL-9', '4111111111111111', 'USD', '10.00']) expect(JSON.stringify(refused.toJSON())).not.toContain(cell);
  });

  it('whatever the column names, an error names a column only as a name (never digits like a card number) or by its position', () => {
    const name = fc.oneof(
      fc.constantFrom('transaction_id', 'order_no', 'amount', 'txn', '4111111111111111', 'card 4111111111111111', '123', '12/30'),
      fc.string({ maxLength: 80 }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...BATCH_OPERATIONS),
        fc.constantFrom('csv' as const, 'jsonl' as const),
        fc.uniqueArray(name, { maxLength: 8 }),
        (operation, format, columns) => {
          const problems = orderColumnProblems(operation, columns);
          if (problems === null) return;
          const error = new OrderColumnsError({ file: 'f', format, line: 1, operation }, problems);
          for (const unknown of error.details.unknown) {
            expect(
              unknown.column === `column ${unknown.position}` ||
                (unknown.column === columns[unknown.position - 1] && /^[\p{L}_]/u.test(unknown.column) && !/\d{12,}/.test(unknown.column)),
            ).toBe(true);
          }
          expect(JSON.stringify(error.toJSON())).not.toMatch(/\d{12,}/);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
