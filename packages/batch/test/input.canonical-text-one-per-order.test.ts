// The identity of an input order is one text per order, whatever path writes it: the stream's fast path (JSON.stringify
// with the names in order) and the general one give the same text for any record, and the same order with its members
// in another order (a CSV's columns reordered) gives the same text; another value gives another.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonicalOrderTexts, canonicalOrderText, InputDigest, NOTHING_RECORDED } from '../src/intake/input-digest.ts';

const value = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.constant(undefined));
const record = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 8 }),
  fc.oneof(value, fc.dictionary(fc.string({ maxLength: 4 }), value, { maxKeys: 3 }), fc.array(value, { maxLength: 3 })),
  { maxKeys: 6 },
);

const reversed = (order: Record<string, unknown>) => Object.fromEntries(Object.entries(order).reverse());

describe('the canonical text of an input order', () => {
  it('is the same from the stream fast path and the general path, for any records in any sequence', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), (records) => {
        const texts = new CanonicalOrderTexts();
        for (const [index, order] of records.entries()) {
          const pending = { index, order, resends: 0 };
          expect(texts.text(pending)).toBe(canonicalOrderText(pending));
          expect(texts.text({ ...pending, order: reversed(order) })).toBe(canonicalOrderText(pending));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('tells apart another value, and names the card fields an order carried (never their values)', () => {
    const order = { transaction_id: 'T1', order_no: 'O1', amount: '3.00' };
    const texts = new CanonicalOrderTexts();
    expect(texts.text({ index: 0, order, resends: 0 })).not.toBe(texts.text({ index: 0, order: { ...order, amount: '3.0' }, resends: 0 }));
    expect(texts.text({ index: 0, order, resends: 0, cardFields: ['card'] })).toBe(`${texts.text({ index: 0, order, resends: 0 })}\u0000card:card`);
  });
});

describe('the digest of an input as it is read', () => {
  const read = (orders: Record<string, unknown>[], cuts: number[]) => {
    const digest = new InputDigest(NOTHING_RECORDED);
    const ranges = [];
    for (const [index, order] of orders.entries()) {
      digest.take({ index, order, resends: 0 });
      if (cuts.includes(index + 1)) ranges.push(digest.cut());
    }
    digest.end();
    ranges.push(digest.cut());
    return { ranges, whole: digest.whole() };
  };
  const orders = Array.from({ length: 3000 }, (_, i) => ({ transaction_id: `T${i}`, order_no: `O${i}`, currency: 'USD', amount: '1.00' }));

  it('is the same for the same orders with their columns in another order, and differs for one changed or moved order', () => {
    const first = read(orders, [50, 1200]);
    expect(first.ranges.map((r) => [r!.from, r!.upto])).toEqual([
      [0, 50],
      [50, 1200],
      [1200, 3000],
    ]);
    expect(read(orders.map(reversed), [50, 1200])).toEqual(first);
    const changed = orders.map((o, i) => (i === 2500 ? { ...o, amount: '1.01' } : o));
    // Only the range holding the changed order (#2500) differs, and with it the whole input's digest.
    const again = read(changed, [50, 1200]);
    expect(again.ranges.map((r, i) => r!.digest === first.ranges[i]!.digest)).toEqual([true, true, false]);
    expect(again.whole).not.toBe(first.whole);
    const swapped = [orders[1]!, orders[0]!, ...orders.slice(2)];
    expect(read(swapped, [50, 1200]).ranges[0]!.digest).not.toBe(first.ranges[0]!.digest);
  });
});
