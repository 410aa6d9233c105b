// The card entry of the hosted checkout page: what the shopper typed, checked; never kept and never written back.
import { isCardNumber } from '../test-cards.ts';

/** A checked card entry: the card number, or every problem found at once. */
export type CardEntry = { readonly card: string; readonly problems: readonly [] } | { readonly card: null; readonly problems: readonly string[] };

/** Checks the submitted card fields: number, expiry (MM/YY, not past at `now`), CVV, name. */
export function readCardEntry(form: ReadonlyMap<string, string>, now: Date): CardEntry {
  const problems: string[] = [];
  const card = (form.get('card_number') ?? '').replace(/[\s-]/g, '');
  if (!isCardNumber(card)) problems.push('Card number: enter 12 to 19 digits.');
  const expiry = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/.exec((form.get('expiry') ?? '').trim());
  if (!expiry) problems.push('Expiry: enter the month and year as MM/YY.');
  else {
    const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
    const month = Number(expiry[1]);
    if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) problems.push('Expiry: this date has passed.');
  }
  if (!/^\d{3,4}$/.test((form.get('cvv') ?? '').trim())) problems.push('CVV: enter the 3 or 4 digits on the back of the card.');
  if ((form.get('holder') ?? '').trim() === '') problems.push('Name on card: enter the name printed on the card.');
  return problems.length === 0 ? { card, problems: [] } : { card: null, problems };
}
