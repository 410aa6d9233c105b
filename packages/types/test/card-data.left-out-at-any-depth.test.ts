import { describe, expect, it } from 'vitest';
import { isCardDataField, secretFields, withoutCardData } from '../src/index.ts';

const CARD = '4111111111111111';

describe('withoutCardData', () => {
  it('leaves out every card-data member at any depth, in objects and arrays, and names each path', () => {
    const input = {
      order_no: 'O1',
      card: CARD,
      note: { holder: { card: CARD, security_code: '737', name: 'Ana' } },
      items: [{ expiration_month: '09', sku: 'A' }],
    };
    const { record, cardData } = withoutCardData(input);
    expect(record).toEqual({ order_no: 'O1', note: { holder: { name: 'Ana' } }, items: [{ sku: 'A' }] });
    expect([...cardData].sort()).toEqual(['card', 'items.0.expiration_month', 'note.holder.card', 'note.holder.security_code']);
    expect(JSON.stringify(record)).not.toContain(CARD);
    expect(input.note.holder.card).toBe(CARD);
  });

  it("puts what `replace` gives in a card-data member's place, and leaves it out where that is undefined", () => {
    const masked = '411111******1111';
    const { record } = withoutCardData({ card: masked, nested: { card: CARD } }, ({ value }) =>
      typeof value === 'string' && value.includes('*') ? value : undefined,
    );
    expect(record).toEqual({ card: masked, nested: {} });
  });

  it('copies a flat record whole and finds nothing', () => {
    const input = { order_no: 'O1', amount: '1.00' };
    const { record, cardData } = withoutCardData(input);
    expect(record).toEqual(input);
    expect(record).not.toBe(input);
    expect(cardData).toEqual([]);
  });

  it('keeps a member named __proto__ as a member, ends on a cycle, and walks 100,000 levels without recursion', () => {
    const proto = JSON.parse('{"__proto__":{"card":"4111111111111111","x":1}}') as Record<string, unknown>;
    const copied = withoutCardData(proto).record;
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.hasOwn(copied, '__proto__')).toBe(true);
    expect(JSON.stringify(copied)).toBe('{"__proto__":{"x":1}}');

    const cyclic: Record<string, unknown> = { card: CARD };
    cyclic.self = cyclic;
    const copy = withoutCardData(cyclic).record;
    expect(copy.self).toBe(copy);
    expect(copy.card).toBeUndefined();

    let deep: Record<string, unknown> = { card: CARD };
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const { cardData } = withoutCardData(deep);
    expect(cardData).toHaveLength(1);
    expect(cardData[0]!.endsWith('.a.card')).toBe(true);
  });

  it('knows the card-data names from the spec', () => {
    for (const name of secretFields) expect(isCardDataField(name)).toBe(true);
    expect(isCardDataField('order_no')).toBe(false);
  });
});
