// The shopper's pages live at an unguessable token, as hosted payment pages do: a sequential transaction id in the
// address let any page approve another shopper's pending order by counting up.
import { randomBytes } from 'node:crypto';
import type { SandboxOrder } from './state.ts';

/** Random bytes in a token: 128 bits. */
export const PAY_TOKEN_BYTES = 16;

/** Where an order's payment page (checkout action, issuer_url) starts: the pay token follows. */
export const PAY_PREFIX = '/sandbox/pay/';
/** Where a challenged order's 3-D Secure page starts: the pay token follows. */
export const CHALLENGE_PREFIX = '/sandbox/3ds/';

/** A new token for an order's shopper pages: 128 bits from node:crypto, base64url (22 characters). */
export function newPayToken(): string {
  return randomBytes(PAY_TOKEN_BYTES).toString('base64url');
}

/** True for an order the shopper acts on in the sandbox's pages (a redirect payment, or a card payment with a challenge). */
export function hasShopperPages(order: Pick<SandboxOrder, 'variant' | 'threedsResult'>): boolean {
  return order.variant !== 'card' || order.threedsResult.startsWith('CHALLENGE_');
}

/** The path of an order's payment page (checkout action, issuer_url). */
export function payPath(order: SandboxOrder): string {
  return `${PAY_PREFIX}${order.payToken ?? ''}`;
}

/** The path of an order's 3-D Secure challenge page. */
export function challengePath(order: SandboxOrder): string {
  return `${CHALLENGE_PREFIX}${order.payToken ?? ''}`;
}
