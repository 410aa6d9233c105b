import { describe, expect, it } from 'vitest';
import { operations, operationsByPath, SchemaWalker, specSchema, variantOf, type OperationSpec, type SchemaNode } from '../src/index.ts';

const defs: Record<string, SchemaNode> = {
  Base: { type: 'object', properties: { id: { type: 'string' }, amount: { type: 'string' } }, required: ['id'] },
  Money: { $ref: '#/$defs/Amount' },
  Amount: { type: ['string', 'null'], pattern: '^\\d+$' },
  Order: { allOf: [{ $ref: '#/$defs/Base' }, { properties: { amount: { $ref: '#/$defs/Money' }, note: { type: 'string' } }, required: ['amount'] }] },
  Either: { anyOf: [{ properties: { card: { type: 'string' } } }, { properties: { iban: { type: 'string' } } }] },
  Dangling: { $ref: '#/$defs/Nowhere' },
  LoopA: { $ref: '#/$defs/LoopB' },
  LoopB: { $ref: '#/$defs/LoopA' },
};
const walker = new SchemaWalker(defs, '#/$defs/');

describe('the schema walker', () => {
  it('follows a $ref chain to its end, and gives an empty schema for a dangling or circular one', () => {
    expect(walker.resolve({ $ref: '#/$defs/Money' })).toBe(defs.Amount);
    expect(walker.chain({ $ref: '#/$defs/Money' })).toEqual([{ $ref: '#/$defs/Money' }, defs.Money, defs.Amount]);
    expect(walker.resolve(defs.Dangling)).toEqual({});
    expect(walker.resolve(defs.LoopA)).toEqual({});
    expect(walker.resolve(undefined)).toEqual({});
  });

  it('reads members and required names through allOf (a later part wins) and the first anyOf branch only', () => {
    expect(Object.keys(walker.membersOf(defs.Order))).toEqual(['id', 'amount', 'note']);
    expect(walker.membersOf(defs.Order).amount).toEqual({ $ref: '#/$defs/Money' });
    expect(walker.requiredOf({ $ref: '#/$defs/Order' })).toEqual(['id', 'amount']);
    expect(Object.keys(walker.membersOf(defs.Either))).toEqual(['card']);
  });

  it('expands a node into every node it stands for, every anyOf branch included', () => {
    const expanded = walker.expand([defs.Either!]);
    expect(expanded.flatMap((n) => Object.keys((n.properties ?? {}) as object))).toEqual(expect.arrayContaining(['card', 'iban']));
    expect(walker.expand([defs.LoopA!])).toHaveLength(2);
  });

  it('tells a type, skipping null, and calls a schema with members an object', () => {
    expect(walker.typeOf(defs.Money)).toBe('string');
    expect(walker.typeOf(defs.Order)).toBe('object');
    expect(walker.typeOf({})).toBeUndefined();
  });
});

describe('the spec read through it', () => {
  it('knows every operation by its path, and tells the variants of a path apart by the member that selects one', () => {
    for (const op of Object.values(operations) as OperationSpec[]) expect(operationsByPath.get(op.path)).toContain(op);
    const authorise = operationsByPath.get(operations.authoriseCard.path)!;
    expect(authorise.length).toBeGreaterThan(1);
    const selecting = authorise.find((v) => v.selectWhenPresent)!;
    expect(variantOf(authorise, { [selecting.selectWhenPresent!]: 'x' })).toBe(selecting);
    expect(variantOf(authorise, {}).selectWhenPresent).toBeFalsy();
    expect(variantOf(authorise, null).selectWhenPresent).toBeFalsy();
  });

  it("reads the spec's own component schemas", () => {
    expect(Object.keys(specSchema.membersOf(specSchema.named(operations.capture.requestSchema)))).toContain('capture_orders');
  });
});
