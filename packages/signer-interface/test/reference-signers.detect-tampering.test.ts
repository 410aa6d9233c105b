import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHmacSha256Signer, createSha256ConcatSigner, createSignableMessage, flattenRecord, omitEncryptionData } from '../src/index.ts';

function messageOf(record: object) {
  return createSignableMessage({ operation: 'refund', record, body: JSON.stringify(omitEncryptionData(record)) });
}

// Leaves are non-empty strings so that every change is visible to a plain concatenation too.
const leaf = fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' });
const order = fc.dictionary(fc.constantFrom('transaction_id', 'order_no', 'currency', 'amount', 'refund_reason'), leaf, { minKeys: 1 });
const record = fc.record({
  merchant_id: leaf,
  account_id: leaf,
  refund_orders: fc.array(order, { minLength: 1, maxLength: 5 }),
});

/** Sets the value at a field path (as flattenRecord writes it) in a copy of the record. */
function withValue(r: object, path: string, value: string): object {
  const copy = structuredClone(r) as Record<string, unknown>;
  const parts = path.match(/[^.[\]]+/g) ?? [];
  let node: Record<string, unknown> = copy;
  parts.slice(0, -1).forEach((part) => (node = node[part] as Record<string, unknown>));
  node[parts.at(-1)!] = value;
  return copy;
}

describe.each([
  ['createHmacSha256Signer', createHmacSha256Signer],
  ['createSha256ConcatSigner', createSha256ConcatSigner],
])('%s', (_, create) => {
  const signer = create({ secret: 'property-secret' });

  it('verifies its own signature of any record', () => {
    fc.assert(
      fc.property(record, (r) => {
        expect(signer.verify(messageOf(r), signer.sign(messageOf(r)))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses the signature after any one value changes', () => {
    fc.assert(
      fc.property(record, fc.nat(), leaf, (r, pick, replacement) => {
        const fields = flattenRecord(r);
        const target = fields[pick % fields.length]!;
        fc.pre(replacement !== target.value);
        const signature = signer.sign(messageOf(r));
        expect(signer.verify(messageOf(withValue(r, target.path, replacement)), signature)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a signature made with another secret', () => {
    const other = create({ secret: 'property-secret-2' });
    fc.assert(
      fc.property(record, (r) => {
        expect(signer.verify(messageOf(r), other.sign(messageOf(r)))).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});
