// Orders from a file an older sandbox wrote, brought up to what this one keeps. The file's format stays version 1: a
// member added since is filled in at load and the order written back (an older sandbox keeps members it does not know).
import { hasShopperPages, newPayToken } from '../state/pay-token.ts';
import type { SandboxOrder } from '../state/state.ts';

/** An order as a state file holds it: members added since format 1 may be missing. */
export type StoredOrder = Omit<SandboxOrder, 'payToken'> & { readonly payToken?: string | null };

/** The order with every member this sandbox keeps, and whether it had to be filled in (then it is written back). */
export function upgradeOrder(stored: StoredOrder): { order: SandboxOrder; upgraded: boolean } {
  const { payToken, ...order } = stored;
  // Written before pay tokens (shopper pages at the transaction id): an order with shopper pages gets its token now.
  if (payToken === undefined) {
    const token = hasShopperPages(order) ? newPayToken() : null;
    return { order: { ...order, payToken: token }, upgraded: token !== null };
  }
  return { order: { ...order, payToken }, upgraded: false };
}
