import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ordersFromCsv, ordersFromJsonl } from '../src/index.ts';

const CARD = '4111111111111111';
const dir = mkdtempSync(join(tmpdir(), 'gw-order-sources-'));

function file(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function read(orders: AsyncIterable<unknown>): Promise<{ orders: unknown[]; error?: any }> {
  const out: unknown[] = [];
  try {
    for await (const order of orders) out.push(order);
    return { orders: out };
  } catch (error) {
    return { orders: out, error };
  }
}

function expectTypedError(error: any, path: string, line: number | null): void {
  expect(error?.name).toBe('OrderSourceError');
  expect(error.code).toBe('GW_DECODE');
  expect(error.details).toMatchObject({ file: path, line });
  expect(typeof error.details.problem).toBe('string');
  expect(error.message).toContain(line === null ? path : `${path}, line ${line}`);
  for (const shown of [error.message, JSON.stringify(error.toJSON()), inspect(error, { depth: 10 })]) expect(shown).not.toContain(CARD);
}

describe('a malformed orders file', () => {
  it('CSV: a row with an extra field is refused as a typed error naming its line, the rows before it read', async () => {
    const path = file('extra.csv', `transaction_id,order_no,currency,amount\nT1,O1,USD,1.00\nT2,O2,USD,1.00,${CARD}\n`);
    const result = await read(ordersFromCsv(path));
    expect(result.orders).toEqual([{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }]);
    expectTypedError(result.error, path, 3);
    expect(result.error.details.problem).toContain('5 field(s), the header has 4');
  });

  it('CSV: an unclosed quote, a stray quote and a duplicate column are each named', async () => {
    const unclosed = file('unclosed.csv', `order_no,amount\nO1,1.00\n"O2,${CARD}\n`);
    expectTypedError((await read(ordersFromCsv(unclosed))).error, unclosed, 3);
    const stray = file('stray.csv', `order_no,amount\n"O1"x,${CARD}\n`);
    expectTypedError((await read(ordersFromCsv(stray))).error, stray, 2);
    const duplicate = file('duplicate.csv', 'order_no,amount,amount\nO1,1.00,2.00\n');
    const error = (await read(ordersFromCsv(duplicate))).error;
    expectTypedError(error, duplicate, 1);
    expect(error.details.problem).toContain('"amount" twice');
  });

  it('CSV: invalid UTF-8 is refused, not read as replacement characters', async () => {
    const path = file('latin1.csv', Buffer.concat([Buffer.from('order_no,amount\nO1,1.00\nO'), Buffer.from([0xe9, 0xff]), Buffer.from(',2.00\n')]));
    const result = await read(ordersFromCsv(path));
    expect(result.orders.length).toBeLessThanOrEqual(1);
    expectTypedError(result.error, path, 3);
  });

  it('JSONL: a line that is not JSON, or has a non-text member, is refused naming its line, never echoing it', async () => {
    const broken = file('broken.jsonl', `{"order_no":"O1","amount":"1.00"}\n{"order_no":"O2","card":"${CARD}",}\n`);
    const result = await read(ordersFromJsonl(broken));
    expect(result.orders).toEqual([{ order_no: 'O1', amount: '1.00' }]);
    expectTypedError(result.error, broken, 2);
    const numeric = file('numeric.jsonl', '{"order_no":"O1","amount":10.5,"items":[1]}\n');
    const error = (await read(ordersFromJsonl(numeric))).error;
    expectTypedError(error, numeric, 1);
    expect(error.details.problem).toContain('"amount" is a number');
    expect(error.details.problem).toContain('"items" is an array');
    const proto = file('proto.jsonl', '{"order_no":"O1","__proto__":{"amount":"1.00"}}\n');
    expectTypedError((await read(ordersFromJsonl(proto))).error, proto, 1);
  });

  it('reads well-formed files with a BOM and CRLF line ends, and names an unreadable file', async () => {
    const csv = file('ok.csv', '\uFEFForder_no,amount\r\nO1, 1.00 \r\n\r\n"O,2","3.00"\r\n');
    expect((await read(ordersFromCsv(csv))).orders).toEqual([
      { order_no: 'O1', amount: '1.00' },
      { order_no: 'O,2', amount: '3.00' },
    ]);
    const jsonl = file('ok.jsonl', '\uFEFF{"order_no":"O1"}\r\n\r\n{"order_no":"O2"}');
    expect((await read(ordersFromJsonl(jsonl))).orders).toEqual([{ order_no: 'O1' }, { order_no: 'O2' }]);
    const missing = join(dir, 'missing.csv');
    expectTypedError((await read(ordersFromCsv(missing))).error, missing, null);
  });
});
