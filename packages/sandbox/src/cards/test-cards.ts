// The sandbox's test cards and magic amounts: the one table behind direct card payments, the hosted checkout page,
// its card list and the README.
import { toMinorUnits } from '../state/money.ts';

/** Test cards whose outcome is fixed; any other well-formed card is approved. */
export const TEST_CARDS = {
  approved: '4111111111111111',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expiredCard: '4000000000000069',
  threeDsRequired: '4000000000003220',
  riskReject: '4100000000000019',
} as const;

/** Amounts whose cents fix a decline whatever the card: `.05` is "do not honour". A payout of such an amount fails. */
export const DECLINE_CENTS = '05';

/** True when an amount (decimal text) ends in the decline cents `.05`: card payments are declined, payouts fail. */
export function hasDeclineCents(amount: unknown): boolean {
  const minor = toMinorUnits(amount);
  return minor !== null && minor % 100n === BigInt(DECLINE_CENTS);
}

/** What a test card (or amount) makes the sandbox do. */
export type TestCardBehaviour = 'approve' | 'decline' | 'challenge';

/** One row of the test-card table. */
export interface TestCardRow {
  /** The card number, or a description of the magic value (`amount ending in .05`). */
  readonly card: string;
  /** True when `card` is a number to type in; false for a magic amount or a class of numbers. */
  readonly isNumber: boolean;
  readonly behaviour: TestCardBehaviour;
  /** `result_info` of the outcome (for a challenge: of a passed challenge; a failed one is CHALLENGE_FAILED_RESULT). */
  readonly resultInfo: string;
  /** What a person reads in the table. */
  readonly description: string;
  /** A card number and amount that show the row's outcome (tests drive every row with it). */
  readonly example: { readonly card: string; readonly amount: string };
}

const SUCCESS = '0000:Success';
/** `order_status` of a direct card payment waiting for its 3-D Secure challenge (the sandbox's own code, UNKNOWNS U17). */
export const CHALLENGE_ORDER_STATUS = '2';
/** `result_info` of a payment whose 3-D Secure challenge the shopper failed. */
export const CHALLENGE_FAILED_RESULT = '2012:3-D Secure challenge failed';
/** `result_info` of a direct payment with a challenge card sent without `open3d=do3DS` (UNKNOWNS U17). */
export const CHALLENGE_NEEDS_3DS_RESULT = '2011:3-D Secure required by the issuer; send open3d=do3DS';
const RISK_REJECT_RESULT = '3001:Declined by risk rules';

/** Every test card and magic value, in the order the page and the README list them. */
export const TEST_CARD_TABLE: readonly TestCardRow[] = Object.freeze([
  {
    card: TEST_CARDS.approved,
    isNumber: true,
    behaviour: 'approve',
    resultInfo: SUCCESS,
    description: 'approved (as is any other valid number not listed here)',
    example: { card: TEST_CARDS.approved, amount: '10.00' },
  },
  {
    card: TEST_CARDS.declined,
    isNumber: true,
    behaviour: 'decline',
    resultInfo: '2001:Card declined',
    description: 'declined by the issuer',
    example: { card: TEST_CARDS.declined, amount: '10.00' },
  },
  {
    card: TEST_CARDS.insufficientFunds,
    isNumber: true,
    behaviour: 'decline',
    resultInfo: '2004:Insufficient funds',
    description: 'declined: insufficient funds',
    example: { card: TEST_CARDS.insufficientFunds, amount: '10.00' },
  },
  {
    card: TEST_CARDS.expiredCard,
    isNumber: true,
    behaviour: 'decline',
    resultInfo: '2003:Expired card',
    description: 'declined: the issuer reports the card expired',
    example: { card: TEST_CARDS.expiredCard, amount: '10.00' },
  },
  {
    card: TEST_CARDS.riskReject,
    isNumber: true,
    behaviour: 'decline',
    resultInfo: RISK_REJECT_RESULT,
    description: 'declined by risk rules: risk_action REJECT, risk_score 95',
    example: { card: TEST_CARDS.riskReject, amount: '10.00' },
  },
  {
    card: TEST_CARDS.threeDsRequired,
    isNumber: true,
    behaviour: 'challenge',
    resultInfo: SUCCESS,
    description: `3-D Secure challenge: Complete → approved (CHALLENGE_PASSED), Fail → declined (${CHALLENGE_FAILED_RESULT})`,
    example: { card: TEST_CARDS.threeDsRequired, amount: '10.00' },
  },
  {
    card: `any amount ending in .${DECLINE_CENTS}`,
    isNumber: false,
    behaviour: 'decline',
    resultInfo: '2005:Do not honour',
    description: 'declined whatever the card',
    example: { card: TEST_CARDS.approved, amount: `10.${DECLINE_CENTS}` },
  },
  {
    card: 'not 12–19 digits',
    isNumber: false,
    behaviour: 'decline',
    resultInfo: '2002:Invalid card number',
    description: 'declined (a direct payment); the hosted page asks again',
    example: { card: '4111', amount: '10.00' },
  },
] satisfies TestCardRow[]);

/** What the sandbox decides for a card payment. */
export interface CardOutcome {
  /** approve, decline, or `challenge`: the order waits for the shopper's 3-D Secure challenge. */
  readonly behaviour: TestCardBehaviour;
  readonly approved: boolean;
  readonly resultInfo: string;
  readonly threeDs: boolean;
  readonly threedsResult: string;
  readonly riskAction: string;
  readonly riskScore: number;
  readonly riskReasons: { name: string; status: string } | '';
}

const BY_NUMBER: ReadonlyMap<string, TestCardRow> = new Map(TEST_CARD_TABLE.filter((row) => row.isNumber).map((row) => [row.card, row]));

/** True for a string of 12 to 19 digits. */
export function isCardNumber(card: unknown): card is string {
  return typeof card === 'string' && /^\d{12,19}$/.test(card);
}

/**
 * The outcome of a card payment from its card number, amount and whether 3-D Secure runs (`open3d=do3DS`, or always
 * on the hosted page). A challenge card asks for a challenge when 3-D Secure runs, and is declined when it does not.
 */
export function decideCardOutcome(card: unknown, amount: unknown, threeDs: boolean): CardOutcome {
  const base = { threeDs, threedsResult: threeDs ? 'AUTHENTICATED' : '', riskAction: 'ACCEPT', riskScore: 12, riskReasons: '' as const };
  const decline = (resultInfo: string) => ({ ...base, behaviour: 'decline' as const, approved: false, resultInfo });
  if (!isCardNumber(card)) return decline('2002:Invalid card number');
  const row = BY_NUMBER.get(card);
  if (row?.resultInfo === RISK_REJECT_RESULT) {
    return { ...decline(RISK_REJECT_RESULT), riskAction: 'REJECT', riskScore: 95, riskReasons: { name: 'velocity', status: 'REJECT' } };
  }
  if (row?.behaviour === 'challenge') {
    if (!threeDs) return decline(CHALLENGE_NEEDS_3DS_RESULT);
    return { ...base, behaviour: 'challenge', approved: false, resultInfo: '0001:3-D Secure challenge required', threedsResult: 'CHALLENGE_REQUIRED' };
  }
  if (row?.behaviour === 'decline') return decline(row.resultInfo);
  if (hasDeclineCents(amount)) return decline('2005:Do not honour');
  return { ...base, behaviour: 'approve', approved: true, resultInfo: SUCCESS };
}

/** First six digits, asterisks, last four (seed 2.4). */
export function maskCard(card: unknown): string {
  if (!isCardNumber(card)) return '';
  return `${card.slice(0, 6)}${'*'.repeat(card.length - 10)}${card.slice(-4)}`;
}

/** The test-card table as Markdown, exactly as the sandbox README shows it (a test keeps the two equal). */
export function testCardsMarkdown(): string {
  const lines = ['| card / amount | outcome | `result_info` |', '|---|---|---|'];
  for (const row of TEST_CARD_TABLE) lines.push(`| ${row.isNumber ? `\`${row.card}\`` : row.card} | ${row.description} | \`${row.resultInfo}\` |`);
  return lines.join('\n');
}
