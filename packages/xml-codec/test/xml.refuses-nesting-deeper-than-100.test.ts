import { describe, expect, it } from 'vitest';
import { decodeCancelSubscription, decodeCardRespon } from '../src/index.ts';
import { decodeFailure } from './thrown.ts';

const nested = (root: string, depth: number): string => `<${root}>${'<a>'.repeat(depth - 1)}x${'</a>'.repeat(depth - 1)}</${root}>`;

describe('XML nesting', () => {
  it('up to 100 levels (the root included) decodes', () => {
    let value: unknown = decodeCardRespon(nested('respon', 100));
    for (let depth = 1; depth < 99; depth++) value = (value as { a: unknown }).a;
    expect(value).toEqual({ a: 'x' });
  });

  it('deeper is refused before parsing with DecodeError too-deep, even 100,000 levels and unclosed', () => {
    for (const xml of [nested('respon', 101), nested('respon', 100_000), `<respon>${'<a>'.repeat(100_000)}`]) {
      const error = decodeFailure(() => decodeCardRespon(xml, { maxInputBytes: 1e7 }));
      expect(error.failure).toBe('too-deep');
      expect(error.message).toContain('more than 100 levels');
    }
    expect(decodeFailure(() => decodeCancelSubscription(nested('request', 101))).failure).toBe('too-deep');
  });
});
