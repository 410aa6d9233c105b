// What a shopper's button does to an order: each returns the page to show, or that the browser goes back to the shop.
import { settleRedirectPayment } from '../lifecycle/redirect-payment.ts';
import type { SandboxDeps } from '../lifecycle/deps.ts';
import type { SandboxOrder } from '../state/state.ts';
import { CHALLENGE_FAILED_RESULT, decideCardOutcome, maskCard } from '../cards/test-cards.ts';
import { CHECKOUT_PAGE_CSP } from './card-check-script.ts';
import { readCardEntry } from './card-form.ts';
import { checkoutPage } from './checkout-page.ts';
import { challengePath } from '../state/pay-token.ts';

/**
 * What to answer: a page (with its status, and its CSP when not the pages' default), or the shop (return_url /
 * cancel_url), or another sandbox page.
 */
export type ShopperAnswer = { readonly page: string; readonly status: number; readonly csp?: string } | { readonly back: true } | { readonly redirect: string };

/** The checkout page as an answer, with the CSP that lets its check script run. */
export function checkoutAnswer(order: SandboxOrder, form: ReadonlyMap<string, string>, status: number, problems: readonly string[] = []): ShopperAnswer {
  return { page: checkoutPage(order, form, problems), status, csp: CHECKOUT_PAGE_CSP };
}

const BACK = { back: true } as const;

/** A button on the hosted checkout page: `pay` with the card entered, or `cancel`. */
export function actOnCheckout(deps: SandboxDeps, order: SandboxOrder, action: string, form: ReadonlyMap<string, string>): ShopperAnswer {
  if (action === 'cancel') {
    settleRedirectPayment(deps, order, 'cancelled', 'shopper');
    return BACK;
  }
  if (action !== 'pay') return checkoutAnswer(order, form, 400, [`Unknown action "${action}".`]);
  const entry = readCardEntry(form, deps.clock());
  if (entry.card === null)
    return checkoutAnswer(
      order,
      form,
      422,
      entry.problems.map((problem) => problem.message),
    );
  const outcome = decideCardOutcome(entry.card, order.amount, true);
  const card = { maskedCard: maskCard(entry.card), riskAction: outcome.riskAction, riskScore: outcome.riskScore };
  if (outcome.behaviour === 'challenge') {
    order.maskedCard = card.maskedCard;
    order.threedsResult = outcome.threedsResult;
    order.is3ds = true;
    deps.state.addEvent(order, 'challenge-required', 'shopper', deps.clock(), card.maskedCard);
    return { redirect: challengePath(order) };
  }
  settleRedirectPayment(deps, order, outcome.approved ? 'authorised' : 'declined', 'shopper', {
    ...card,
    resultInfo: outcome.resultInfo,
    threedsResult: outcome.threedsResult,
  });
  return BACK;
}

/** A button on the alternative method's issuer page: approve, decline, cancel, or leave the order pending. */
export function actOnAlternative(deps: SandboxDeps, order: SandboxOrder, action: string): ShopperAnswer {
  if (action === 'leave') {
    deps.state.addEvent(order, 'left-pending', 'shopper', deps.clock());
    return BACK;
  }
  const outcome = action === 'approve' ? 'authorised' : action === 'decline' ? 'declined' : action === 'cancel' ? 'cancelled' : null;
  if (outcome === null) return { page: '', status: 400 };
  settleRedirectPayment(deps, order, outcome, 'shopper');
  return BACK;
}

/** A button on the 3-D Secure challenge page: complete (approved) or fail (declined). */
export function actOnChallenge(deps: SandboxDeps, order: SandboxOrder, action: string): ShopperAnswer {
  if (action !== 'complete' && action !== 'fail') return { page: '', status: 400 };
  const passed = action === 'complete';
  settleRedirectPayment(deps, order, passed ? 'authorised' : 'declined', 'shopper', {
    threedsResult: passed ? 'CHALLENGE_PASSED' : 'CHALLENGE_FAILED',
    ...(passed ? {} : { resultInfo: CHALLENGE_FAILED_RESULT }),
  });
  return BACK;
}
