import type { CancelSubscriptionRequest } from '@gw/types';
import { ValidationError } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { decodeCancelSubscription, encodeCancelSubscription, encodeRespon } from '../src/index.ts';
import { thrown } from './thrown.ts';

/** `{ a: { a: … 'x' } }` with `levels` elements from the outer `a` to the innermost (its text included). */
function chain(levels: number): unknown {
  let value: unknown = 'x';
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

describe('XML encoders and records nested deeper than decoding allows', () => {
  it('encode a record whose elements reach 100 levels (the root included), and it decodes back', () => {
    const record = { recurring_id: 'R1', extra: chain(99) } as unknown as CancelSubscriptionRequest;
    expect(decodeCancelSubscription(encodeCancelSubscription(record))).toEqual(record);
  });

  it('refuse deeper ones, 5,000 levels and a cycle included, with ValidationError naming the path, never a RangeError', () => {
    const cyclic: Record<string, unknown> = { recurring_id: 'R1' };
    cyclic.extra = cyclic;
    for (const record of [{ recurring_id: 'R1', extra: chain(100) }, { recurring_id: 'R1', extra: chain(5_000) }, cyclic]) {
      const error = thrown(() => encodeCancelSubscription(record as unknown as CancelSubscriptionRequest));
      expect(error).toBeInstanceOf(ValidationError);
      const [problem] = (error as ValidationError).details.problems;
      expect(problem).toMatchObject({ keyword: 'maxDepth' });
      expect(problem!.field).toMatch(/^extra(\.(a|extra))+$/);
    }
    const deepRespon = { order_no: 'O1', note_extra: chain(5_000) } as unknown as Parameters<typeof encodeRespon>[0];
    expect(thrown(() => encodeRespon(deepRespon))).toBeInstanceOf(ValidationError);
  });
});
