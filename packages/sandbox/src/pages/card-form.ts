// The card entry of the hosted checkout page: what the shopper typed, checked; never kept and never written back.
import { isCardNumber } from '../cards/test-cards.ts';

/** The card entry's inputs, by their form names. */
export type CardField = 'card_number' | 'expiry' | 'cvv' | 'holder';

/** One problem of a card entry: the input it is about and what to do (never the value typed). */
export interface CardProblem {
  readonly field: CardField;
  readonly message: string;
}

/** A checked card entry: the card number, or every problem found at once. */
export type CardEntry = { readonly card: string; readonly problems: readonly [] } | { readonly card: null; readonly problems: readonly CardProblem[] };

function expiryProblem(value: string, now: Date): string | null {
  const expiry = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/.exec(value.trim());
  if (!expiry) return 'Expiry: enter the month and year as MM/YY.';
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  const month = Number(expiry[1]);
  return year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1 ? 'Expiry: this date has passed.' : null;
}

/** Checks the submitted card fields: number, expiry (MM/YY, not past at `now`), CVV, name. */
export function readCardEntry(form: ReadonlyMap<string, string>, now: Date): CardEntry {
  const problems: CardProblem[] = [];
  const card = (form.get('card_number') ?? '').replace(/[\s-]/g, '');
  if (!isCardNumber(card)) problems.push({ field: 'card_number', message: 'Card number: enter 12 to 19 digits.' });
  const expiry = expiryProblem(form.get('expiry') ?? '', now);
  if (expiry !== null) problems.push({ field: 'expiry', message: expiry });
  if (!/^\d{3,4}$/.test((form.get('cvv') ?? '').trim())) problems.push({ field: 'cvv', message: 'CVV: enter the 3 or 4 digits on the back of the card.' });
  if ((form.get('holder') ?? '').trim() === '') problems.push({ field: 'holder', message: 'Name on card: enter the name printed on the card.' });
  return problems.length === 0 ? { card, problems: [] } : { card: null, problems };
}
