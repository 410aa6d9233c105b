import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHmacSha256Signer, createSignableMessage, flattenRecord, SignableMessageError } from '../src/index.ts';

// A batch signs records of one shape over and over: a record of a shape seen before must still give exactly its own
// fields and signing text, and a record that differs anywhere must not be taken for an earlier one (a guard against any
// state kept from one message to the next).

const key = fc.string({ unit: fc.constantFrom('a', 'b', '_', '0', '1', 'é', '.', '[', '%'), minLength: 1, maxLength: 2 }).filter((k) => k !== '__proto__');
const leaf = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.constant(null));
const tree = fc.letrec<{ node: unknown; record: Record<string, unknown> }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('node'), { maxLength: 12 }), tie('record')),
  record: fc.dictionary(key, tie('node'), { maxKeys: 5 }),
})).record;

/** The same record with every leaf replaced, in walk order, by the next of `values`. */
function withValues(node: unknown, values: unknown[]): unknown {
  if (Array.isArray(node)) return node.map((item) => withValues(item, values));
  if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, withValues(v, values)]));
  const next = values.shift();
  return next === undefined ? node : next;
}

/** One change of shape somewhere in the record: what a shape cache would have to notice. */
type Change = 'add-member' | 'drop-member' | 'member-undefined' | 'leaf-to-object' | 'leaf-to-array' | 'grow-array' | 'reorder' | 'nested-signature';

function changed(record: Record<string, unknown>, change: Change): Record<string, unknown> | null {
  const objects: Record<string, unknown>[] = [];
  const arrays: unknown[][] = [];
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) {
      arrays.push(node);
      node.forEach(collect);
    } else if (node !== null && typeof node === 'object') {
      objects.push(node as Record<string, unknown>);
      Object.values(node).forEach(collect);
    }
  };
  const copy = structuredClone(record);
  collect(copy);
  const target = objects[objects.length - 1]!;
  const keys = Object.keys(target);
  const leafKey = keys.find((k) => target[k] === null || typeof target[k] !== 'object');
  switch (change) {
    case 'add-member':
      target['zz'] = 'new';
      return copy;
    case 'drop-member':
      if (keys.length === 0) return null;
      delete target[keys[0]!];
      return copy;
    case 'member-undefined':
      if (keys.length === 0) return null;
      target[keys[0]!] = undefined;
      return copy;
    case 'leaf-to-object':
      if (!leafKey) return null;
      target[leafKey] = { inner: 'x' };
      return copy;
    case 'leaf-to-array':
      if (!leafKey) return null;
      target[leafKey] = ['x'];
      return copy;
    case 'grow-array':
      if (arrays.length === 0) return null;
      arrays[0]!.push('more');
      return copy;
    case 'reorder': {
      if (keys.length < 2) return null;
      const entries = Object.entries(target).reverse();
      for (const k of keys) delete target[k];
      for (const [k, v] of entries) target[k] = v;
      return copy;
    }
    case 'nested-signature':
      target['encryption_data'] = 'ignored';
      return copy;
  }
}

const signer = createHmacSha256Signer({ secret: 'shape-test' });
const expectOwn = (record: Record<string, unknown>) => {
  const message = createSignableMessage({ operation: 'capture', record, body: '' });
  expect(message.fields.map(({ path, value }) => ({ path, value }))).toEqual(flattenRecord(record));
  // The same signer over the independently walked pairs: equal signatures mean equal signing texts.
  expect(signer.sign(message)).toBe(signer.sign({ operation: message.operation, fields: flattenRecord(record), body: new Uint8Array() }));
  return message;
};

describe('records of a shape already walked', () => {
  it('give their own fields and signing text when only the values differ', () => {
    fc.assert(
      fc.property(tree, fc.array(leaf, { minLength: 1, maxLength: 200 }), (record, values) => {
        expectOwn(record);
        const twin = withValues(record, [...values]) as Record<string, unknown>;
        expectOwn(twin);
      }),
      { numRuns: 800 },
    );
  });

  it('give their own fields and signing text when the shape differs anywhere', () => {
    const change = fc.constantFrom<Change>(
      'add-member',
      'drop-member',
      'member-undefined',
      'leaf-to-object',
      'leaf-to-array',
      'grow-array',
      'reorder',
      'nested-signature',
    );
    fc.assert(
      fc.property(tree, change, (record, how) => {
        expectOwn(record);
        const other = changed(record, how);
        if (other) expectOwn(other);
      }),
      { numRuns: 800 },
    );
  });

  it('still refuses what the walk refuses, after a record of the same outline was accepted', () => {
    createSignableMessage({ operation: 'refund', record: { a: {}, n: 1, list: [{ x: '1' }] }, body: '' });
    const cyclic: Record<string, unknown> = { x: '1' };
    cyclic.self = cyclic;
    for (const record of [
      { a: new Date(0), n: 1, list: [{ x: '1' }] },
      { a: {}, n: Number.NaN, list: [{ x: '1' }] },
      { a: {}, n: 1, list: [cyclic] },
      { a: {}, n: 1n, list: [{ x: '1' }] },
    ]) {
      expect(() => createSignableMessage({ operation: 'refund', record, body: '' })).toThrow(SignableMessageError);
    }
  });

  it('give their own fields and signing text while Object.prototype has an enumerable member (inherited keys are never signed)', () => {
    const record = { order_no: 'A-1', amount: '1.00', nested: { currency: 'USD' } };
    const signer = createHmacSha256Signer({ secret: 'k' });
    const before = signer.sign(createSignableMessage({ operation: 'refund', record, body: '' }));
    const seen: { paths: string[]; signature: string }[] = [];
    Object.defineProperty(Object.prototype, 'polluted', { value: 'x', enumerable: true, configurable: true, writable: true });
    try {
      for (let i = 0; i < 3; i++) {
        const message = createSignableMessage({ operation: 'refund', record: { ...record, nested: { currency: 'USD' } }, body: '' });
        seen.push({ paths: message.fields.map((f) => f.path), signature: signer.sign(message) });
      }
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect(seen).toEqual(Array(3).fill({ paths: ['order_no', 'amount', 'nested.currency'], signature: before }));
  });

  it('keep card data out of inspection when the shape was known', () => {
    const record = { card: '4111111111111111', security_code: '123', amount: '1.00' };
    createSignableMessage({ operation: 'authoriseCard', record, body: '' });
    const again = createSignableMessage({ operation: 'authoriseCard', record: { ...record, card: '5555555555554444' }, body: '' });
    expect(again.fields.find((f) => f.path === 'card')?.value).toBe('5555555555554444');
    expect(inspect(again, { depth: 5 })).not.toContain('5555');
    expect(inspect(again, { depth: 5 })).not.toMatch(/security_code', value: '123'/);
  });
});
