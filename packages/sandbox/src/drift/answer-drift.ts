// Answers that differ from the spec on purpose, so a checking proxy (`gw proxy`) can be tested without a real gateway.
import { operations, type OperationName } from '@gw/types';
import type { WireRecord } from '../wire/wire-record.ts';

/**
 * How one operation's answers differ from the spec. Paths are member names, dotted for nested members and with `[]`
 * for every element of an array (`capture_orders[].amount`).
 */
export interface AnswerDriftRule {
  /** Members added (or replaced) with these values. */
  readonly add?: Readonly<Record<string, unknown>>;
  /** Members left out. */
  readonly drop?: readonly string[];
  /**
   * Members whose value changes type: a string of digits becomes a number, a number a string, anything else a number.
   * Only a JSON answer can carry a type: an XML or HTML answer is text, so the control API refuses it there and `*`
   * retypes JSON answers only.
   */
  readonly retype?: readonly string[];
  /** `encryption_data` replaced by a signature that does not verify (an operation whose answers are signed only). */
  readonly wrongSignature?: boolean;
}

/** True when an operation's answers can carry a member of another type: JSON answers (XML and HTML carry text only). */
export function answerCarriesTypes(operation: string): boolean {
  return Object.hasOwn(operations, operation) && operations[operation as OperationName].responseEncoding === 'json';
}

/** Drift rules by operation name (`capture`, `authoriseCard`) or `*` for every operation. */
export type AnswerDriftRules = Readonly<Record<string, AnswerDriftRule>>;

function retyped(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (typeof value === 'number') return String(value);
  return 0;
}

/** Calls `change` on every object holding the last member of `path`, with that member's name. */
function atPath(record: WireRecord, path: string, change: (holder: Record<string, unknown>, name: string) => void): void {
  const parts = path.split('.');
  let holders: Record<string, unknown>[] = [record];
  for (const part of parts.slice(0, -1)) {
    const name = part.endsWith('[]') ? part.slice(0, -2) : part;
    holders = holders.flatMap((h) => {
      const member = h[name];
      if (part.endsWith('[]')) return Array.isArray(member) ? (member.filter((m) => m && typeof m === 'object') as Record<string, unknown>[]) : [];
      return member && typeof member === 'object' ? [member as Record<string, unknown>] : [];
    });
  }
  for (const holder of holders) change(holder, parts.at(-1)!);
}

/** The rules in force, applied to each answer before it is signed (fields) and after (the signature). */
export class AnswerDrift {
  #rules: AnswerDriftRules;

  constructor(rules: AnswerDriftRules = {}) {
    this.#rules = rules;
  }

  /** Replaces the rules (an empty object turns drift off). */
  set(rules: AnswerDriftRules): void {
    this.#rules = rules;
  }

  /** The rules in force. */
  get rules(): AnswerDriftRules {
    return this.#rules;
  }

  #rule(operation: string): AnswerDriftRule | undefined {
    return this.#rules[operation] ?? this.#rules['*'];
  }

  /** The answer with the operation's added, dropped and retyped members (a copy; the record itself is untouched). */
  fields(operation: string, record: WireRecord): WireRecord {
    const rule = this.#rule(operation);
    if (!rule || (!rule.add && !rule.drop && !rule.retype)) return record;
    const copy = structuredClone(record);
    for (const [path, value] of Object.entries(rule.add ?? {})) atPath(copy, path, (h, name) => (h[name] = value));
    for (const path of rule.drop ?? []) atPath(copy, path, (h, name) => delete h[name]);
    for (const path of answerCarriesTypes(operation) ? (rule.retype ?? []) : [])
      atPath(copy, path, (h, name) => Object.hasOwn(h, name) && (h[name] = retyped(h[name])));
    return copy;
  }

  /**
   * A page's hidden fields without the operation's dropped ones. Nothing is added (the page takes any further field,
   * so an added one is no drift), retyped (a page is text) or signed.
   */
  pageFields(operation: string, fields: readonly (readonly [string, string])[]): [string, string][] {
    const dropped = new Set(this.#rule(operation)?.drop ?? []);
    return fields.filter(([name]) => !dropped.has(name)).map(([name, value]): [string, string] => [name, value]);
  }

  /** The signed answer with a signature that does not verify, when the operation's rule asks for one. */
  signature(operation: string, record: WireRecord): WireRecord {
    if (!this.#rule(operation)?.wrongSignature || typeof record.encryption_data !== 'string') return record;
    return { ...record, encryption_data: `drift-${record.encryption_data.slice(6)}` };
  }
}
