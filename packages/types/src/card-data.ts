import { copyRecordGraph } from './copy-record-graph.ts';
import { secretFields } from './generated/operations.gen.ts';
import { setMember } from './set-member.ts';

const CARD_DATA: ReadonlySet<string> = new Set(secretFields);

/** True for a member name the spec marks `x-gw-secret`: card number, security code or expiry. */
export function isCardDataField(name: string): boolean {
  return CARD_DATA.has(name);
}

/**
 * Names a gateway, a team or a tool may give card data that the spec does not use (`cvv`, `card_number`, `pan`,
 * `expiry`, …): the one table of aliases. Compared as `namesCardData` compares them: case, `_`, `-` and spaces aside.
 */
export const cardDataAliases = [
  'cvv',
  'cvv2',
  'cvc',
  'cvc2',
  'csc',
  'cvn',
  'card_code',
  'card_cvv',
  'card_security_code',
  'card_number',
  'card_no',
  'card_num',
  'cardnum',
  'cc_number',
  'ccnum',
  'pan',
  'primary_account_number',
  'expiry',
  'expiry_date',
  'expiry_month',
  'expiry_year',
  'expiration',
  'expiration_date',
  'exp',
  'exp_date',
  'exp_month',
  'exp_year',
  'card_expiry',
  'valid_thru',
] as const;

const looseName = (name: string): string => name.toLowerCase().replace(/[\s_-]/g, '');
const CARD_DATA_LOOSE: ReadonlySet<string> = new Set([...secretFields, ...cardDataAliases].map(looseName));

/**
 * True for a name that may carry card data: a spec `x-gw-secret` field or one of `cardDataAliases`, compared without
 * case, `_`, `-` or spaces (`cardNumber`, `CARD-NUMBER`, `Security Code`). Wider than `isCardDataField`: for what gw
 * shows (reports, summaries), where a value under such a name is never shown.
 */
export function namesCardData(name: string): boolean {
  return CARD_DATA_LOOSE.has(looseName(name));
}

/** A card-data member met in a record: its name, its path from the record (`note.holder.card`, `items.0.card`) and value. */
export interface CardDataMember {
  /** The member's name: one of `secretFields`. */
  readonly name: string;
  /** Where it stands, from the record: names and array indexes joined by dots. */
  readonly path: string;
  /** Its value (handed to `replace`, never shown by gw). */
  readonly value: unknown;
}

/** A record copied without its card data, and the path of every card-data member that was met. */
export interface WithoutCardData<T> {
  /** The copy. */
  readonly record: T;
  /** The path of every card-data member met, left out or replaced. */
  readonly cardData: readonly string[];
}

/** What stands in a card-data member's place in the copy; `undefined` leaves the member out. */
export type CardDataReplacement = (member: CardDataMember) => unknown;

const leaveOut: CardDataReplacement = () => undefined;

/**
 * A deep copy of `record` without card data, with the path of every card-data member met. Each member named as card
 * data, at any depth, is left out, or takes the value `replace` gives it (left out where that is `undefined`). The
 * walk is `copyRecordGraph`'s: an explicit stack, and a record met twice copied once. A member named `__proto__`
 * stays a member.
 */
export function withoutCardData<T>(record: T, replace: CardDataReplacement = leaveOut): WithoutCardData<T> {
  const cardData: string[] = [];
  const paths = new Map<object, string>();
  const copy = copyRecordGraph(record, (source, target, copyOf) => {
    const at = paths.get(source);
    const memberCopy = (name: string, value: unknown): unknown => {
      if (value !== null && typeof value === 'object' && !paths.has(value)) paths.set(value, at === undefined ? name : `${at}.${name}`);
      return copyOf(value);
    };
    if (Array.isArray(source)) {
      source.forEach((item, index) => (target as unknown[]).push(memberCopy(String(index), item)));
      return;
    }
    for (const [name, value] of Object.entries(source)) {
      if (!CARD_DATA.has(name)) setMember(target as Record<string, unknown>, name, memberCopy(name, value));
      else {
        const path = at === undefined ? name : `${at}.${name}`;
        cardData.push(path);
        const kept = replace({ name, path, value });
        if (kept !== undefined) setMember(target as Record<string, unknown>, name, kept);
      }
    }
  });
  return { record: copy as T, cardData };
}
