// The members of an answer that no handler rule decides: echoed from the request, or the values the spec shows
// (UNKNOWNS U53).
import type { WireRecord } from '../wire/wire-record.ts';
import { specSchema, type SchemaNode } from '@gw/types';

/**
 * `record` frozen: complete as it is (an unknown order's one-line result), so no member is filled in. The mark is the
 * record's own (`Object.isFrozen`), visible wherever it goes, not a list kept elsewhere.
 */
export function answeredExactly<T extends WireRecord>(record: T): Readonly<T> {
  return Object.freeze(record);
}

/** Where the members an answer lacks come from, at one level of the answer. */
export interface FillSources {
  /** The operation's answer as the spec shows it (the generated `answerExamples`). */
  readonly example?: Readonly<WireRecord> | undefined;
  /** The request's values of the answer's members (§2.6 echo). */
  readonly echo?: Readonly<WireRecord> | undefined;
  /**
   * The request's schema at this level: a member it has is the request's to carry, so when the request left it out
   * the answer leaves it out too (never an example value in its place). None for an operation without a handler.
   */
  readonly request?: SchemaNode | undefined;
}

function isRecord(value: unknown): value is WireRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function recordOrNone(value: unknown): WireRecord | undefined {
  return isRecord(value) ? value : undefined;
}

function fillValue(value: unknown, example: unknown, echo: unknown, request: SchemaNode | undefined): unknown {
  if (isRecord(value)) return fillFromSpec(value, { example: recordOrNone(example), echo: recordOrNone(echo), request });
  if (!Array.isArray(value)) return value;
  const first = Array.isArray(example) ? example[0] : undefined;
  const items = request ? specSchema.resolve(request).items : undefined;
  return value.map((element, i) => fillValue(element, first, Array.isArray(echo) ? echo[i] : undefined, items));
}

/**
 * `answer` with the members it lacks filled: the request's value where it carries the member (echo), else, unless
 * the member is one the request could carry, the spec's value (example). Nested records and the elements of arrays
 * of records are filled in turn (each element from the example's first). A member a handler set to `undefined` is one
 * it leaves out on purpose: it stays out; a frozen record (`answeredExactly`) gets nothing added. Returns a new record;
 * `answer` is not changed.
 */
export function fillFromSpec(answer: WireRecord, sources: FillSources): WireRecord {
  const { example, echo, request } = sources;
  const requestMembers = request ? specSchema.membersOf(request) : undefined;
  const out: WireRecord = {};
  for (const name of Object.keys(answer)) {
    const value = answer[name];
    // A text or a number is kept as it is: only records and arrays are filled in turn.
    if (value === undefined) continue;
    out[name] = typeof value === 'object' && value !== null ? fillValue(value, example?.[name], echo?.[name], requestMembers?.[name]) : value;
  }
  // A record its handler answered in full (frozen: `answeredExactly`) keeps exactly its members.
  if (Object.isFrozen(answer)) return out;
  // The echo's members first, then the example's: each member the answer lacks, once.
  if (echo) {
    for (const name of Object.keys(echo)) {
      if (!Object.hasOwn(answer, name)) out[name] = fillValue(structuredClone(echo[name]), example?.[name], undefined, requestMembers?.[name]);
    }
  }
  if (example) {
    for (const name of Object.keys(example)) {
      if (Object.hasOwn(answer, name) || (echo && Object.hasOwn(echo, name))) continue;
      if (!requestMembers || !Object.hasOwn(requestMembers, name)) out[name] = structuredClone(example[name]);
    }
  }
  return out;
}
