import { toMinorUnits } from './money.ts';

/** What the sandbox decides for a card payment. */
export interface CardOutcome {
  readonly approved: boolean;
  readonly resultInfo: string;
  readonly threeDs: boolean;
  readonly threedsResult: string;
  readonly riskAction: string;
  readonly riskScore: number;
  readonly riskReasons: { name: string; status: string } | '';
}

/** Test cards whose outcome is fixed; any other well-formed card is approved. Listed in the README. */
export const TEST_CARDS = {
  approved: '4111111111111111',
  declined: '4000000000000002',
  threeDsRequired: '4000000000003220',
  riskReject: '4100000000000019',
} as const;

/** Amounts whose cents fix a decline whatever the card: `.05` is "do not honour". */
export const DECLINE_CENTS = '05';

const SUCCESS = '0000:Success';

/** The outcome of a card payment from its card number, amount and `open3d` switch. */
export function decideCardOutcome(card: unknown, amount: unknown, open3d: unknown): CardOutcome {
  const base = { threeDs: open3d === 'do3DS', threedsResult: open3d === 'do3DS' ? 'AUTHENTICATED' : '', riskAction: 'ACCEPT', riskScore: 12, riskReasons: '' as const };
  if (typeof card !== 'string' || !/^\d{12,19}$/.test(card)) return { ...base, approved: false, resultInfo: '2002:Invalid card number' };
  if (card === TEST_CARDS.declined) return { ...base, approved: false, resultInfo: '2001:Card declined' };
  if (card === TEST_CARDS.riskReject) {
    return { ...base, approved: false, resultInfo: '3001:Declined by risk rules', riskAction: 'REJECT', riskScore: 95, riskReasons: { name: 'velocity', status: 'REJECT' } };
  }
  if (card === TEST_CARDS.threeDsRequired) return { ...base, approved: true, resultInfo: SUCCESS, threeDs: true, threedsResult: 'CHALLENGE_PASSED' };
  const minor = toMinorUnits(amount);
  if (minor !== null && minor % 100n === BigInt(DECLINE_CENTS)) return { ...base, approved: false, resultInfo: '2005:Do not honour' };
  return { ...base, approved: true, resultInfo: SUCCESS };
}

/** First six digits, asterisks, last four (seed 2.4). */
export function maskCard(card: unknown): string {
  if (typeof card !== 'string' || !/^\d{12,19}$/.test(card)) return '';
  return `${card.slice(0, 6)}${'*'.repeat(card.length - 10)}${card.slice(-4)}`;
}
