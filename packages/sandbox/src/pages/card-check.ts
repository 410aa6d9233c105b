// `sandbox_action=check` on a checkout page: the card entry's problems as JSON, for the page's check script. It reads
// the order and the clock and changes nothing (no order, event, attempt or notification), and never echoes a value.
import type { ServerResponse } from 'node:http';
import type { SandboxDeps } from '../lifecycle/deps.ts';
import type { SandboxOrder } from '../state/state.ts';
import { readCardEntry, type CardProblem } from './card-form.ts';

/** The action name the check script sends. */
export const CHECK_ACTION = 'check';

/** What the check answers: every problem of the entry (none: pay), or why this order cannot be paid here. */
export interface CardCheckAnswer {
  readonly problems: readonly CardProblem[];
  readonly message?: string;
}

const HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

/** The check of a card entry for `order`: 200 with its problems, or 409 when the order takes no card payment now. */
export function checkCardEntry(deps: SandboxDeps, order: SandboxOrder, form: ReadonlyMap<string, string>): { status: number; answer: CardCheckAnswer } {
  if (order.variant !== 'checkout' || order.state !== 'pending' || order.threedsResult === 'CHALLENGE_REQUIRED') {
    return { status: 409, answer: { problems: [], message: 'This payment takes no card entry now: submit the form to see where it stands.' } };
  }
  return { status: 200, answer: { problems: readCardEntry(form, deps.clock()).problems } };
}

/** Writes a check's answer as JSON. */
export function sendCardCheck(res: ServerResponse, status: number, answer: CardCheckAnswer): void {
  const body = JSON.stringify(answer);
  res.writeHead(status, { ...HEADERS, 'content-length': Buffer.byteLength(body) }).end(body);
}
