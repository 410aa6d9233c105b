// Test helper: near-valid and hostile inputs for the decoders' property tests, built by mutating valid documents.
import fc from 'fast-check';
import { DecodeError } from '../../src/index.ts';

/** Pieces spliced into documents: markup, entity tricks, prototype names, attributes, lone surrogates, separators. */
export const HOSTILE_PIECES = [
  '<',
  '>',
  '</',
  '/>',
  '<a>',
  '</a>',
  '<a/>',
  '<__proto__>',
  '</__proto__>',
  '<__proto__><polluted>1</polluted></__proto__>',
  '<constructor><prototype><polluted>1</polluted></prototype></constructor>',
  '<toString/>',
  '<g:__proto__ xmlns:g="u">x</g:__proto__>',
  '<order_no>dup</order_no>',
  '<risk_score>1e999</risk_score>',
  '<risk_reasons><name>n</name></risk_reasons>',
  ' a="1"',
  " __proto__='x'",
  ' constructor=1',
  '&amp;',
  '&amp;amp;',
  '&lt;',
  '&#0;',
  '&#xD800;',
  '&#x1F600;',
  '&#99999999;',
  '&e;',
  '&',
  '<!DOCTYPE r [<!ENTITY e "&#38;e;">]>',
  '<!DOCTYPE html>',
  '<![CDATA[<x>]]>',
  ']]>',
  '<!--',
  '-->',
  '<!-- <form> -->',
  '<?xml version="1.0"?>',
  '<?pi x?>',
  '\uD800',
  '\uDC00',
  '\u0000',
  '\uFFFE',
  '\r\n',
  '\t',
  '"',
  "'",
  '=',
  '#,#',
  '#;#',
  '<form id=f>',
  '</form>',
  '<input type=hidden name=__proto__ value=1>',
  '<input type=hidden name=constructor value=2 form=f>',
  '<input type=hidden name=allParams value="__proto__=1&amp;a=2">',
  '<script>submit()</script>',
  '<textarea>',
  '<INPUT TYPE=HIDDEN NAME=a VALUE=b>',
  '&copy',
  '&notin;',
  'x',
];

/**
 * A mutation of a valid document, as plain numbers (cheap to generate and to shrink): `[kind, at, a, b]` splices a piece
 * in, cuts a slice out, repeats a slice, or nests a slice deep (mostly a few levels, sometimes thousands).
 */
const mutation = fc.tuple(fc.nat({ max: 3 }), fc.nat(), fc.nat(), fc.nat());
type Mutation = [kind: number, at: number, a: number, b: number];

const NEST_NAMES = ['a', 'r', '__proto__', 'div', 'form'];

function nestDepth(a: number): number {
  const band = a % 10;
  if (band < 6) return 1 + (a % 8);
  return band < 9 ? 9 + (a % 112) : 121 + (a % 2880);
}

function apply(text: string, [kind, rawAt, a, b]: Mutation): string {
  const at = rawAt % (text.length + 1);
  switch (kind) {
    case 0:
      return text.slice(0, at) + HOSTILE_PIECES[a % HOSTILE_PIECES.length]! + text.slice(at);
    case 1:
      return text.slice(0, at) + text.slice(at + (a % 41));
    case 2: {
      const length = a % 61;
      return text.slice(0, at) + text.slice(at, at + length).repeat(2 + (b % 4)) + text.slice(at + length);
    }
    default: {
      const to = at + (b % (text.length - at + 1));
      const name = NEST_NAMES[b % NEST_NAMES.length]!;
      const depth = nestDepth(a);
      return text.slice(0, at) + `<${name}>`.repeat(depth) + text.slice(at, to) + `</${name}>`.repeat(depth) + text.slice(to);
    }
  }
}

/** Bytes that are not UTF-8: a stray continuation byte, an overlong form, an encoded surrogate, a cut sequence. */
const BAD_UTF8 = [[0xff], [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf0, 0x9f], [0xe2, 0x82]];

/** How a decoder receives a mutated document: text, its UTF-8 bytes, or bytes made invalid, with or without a tight cap. */
export interface HostileInput {
  readonly input: string | Uint8Array;
  readonly maxInputBytes: number | undefined;
}

/** Valid seed documents mutated 0 to 4 times, then delivered as text or (possibly broken) bytes, under a cap near their size. */
export function hostileInputs(seeds: readonly string[]): fc.Arbitrary<HostileInput> {
  return fc
    .record({
      seed: fc.constantFrom(...seeds),
      mutations: fc.array(mutation, { maxLength: 4 }),
      delivery: fc.nat({ max: 7 }),
      badAt: fc.nat(),
      cap: fc.nat({ max: 27 }),
    })
    .map(({ seed, mutations, delivery, badAt, cap }) => {
      const text = (mutations as Mutation[]).reduce(apply, seed);
      let input: string | Uint8Array = text;
      // Half as text, a quarter as UTF-8 bytes, a quarter as bytes made invalid.
      if (delivery >= 4) {
        const bytes = Buffer.from(text, 'utf8');
        if (delivery < 6) input = bytes;
        else {
          const at = badAt % (bytes.length + 1);
          input = Buffer.concat([bytes.subarray(0, at), Buffer.from(BAD_UTF8[badAt % BAD_UTF8.length]!), bytes.subarray(at)]);
        }
      }
      const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
      // One time in four a cap within 3 bytes of the size; otherwise the default cap.
      return { input, maxInputBytes: cap < 21 ? undefined : Math.max(0, size + cap - 24) };
    });
}

/**
 * Asserts that `decode` gave a value or threw DecodeError, that it took less than `maxMs`, and that a decoded value
 * carries no injected prototype: every object in it is a plain object, an array or null-prototype, walked with an
 * explicit stack (decoded values can be deep).
 */
export function assertDecodedOrRefused(decode: () => unknown, maxMs: number): void {
  const start = performance.now();
  let value: unknown;
  try {
    value = decode();
  } catch (error) {
    if (!(error instanceof DecodeError) || error.code !== 'GW_DECODE') throw error;
    return;
  } finally {
    const took = performance.now() - start;
    if (took > maxMs) throw new Error(`the decoder took ${Math.round(took)} ms on one input`);
  }
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null) continue;
    const proto: unknown = Object.getPrototypeOf(item);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) throw new Error('a decoded object has an injected prototype');
    for (const key of Reflect.ownKeys(item)) {
      const descriptor = Object.getOwnPropertyDescriptor(item, key)!;
      if (!('value' in descriptor)) throw new Error(`a decoded object has an accessor ${String(key)}`);
      stack.push(descriptor.value);
    }
  }
}
