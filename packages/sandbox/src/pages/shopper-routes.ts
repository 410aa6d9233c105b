// `/sandbox/pay/<pay token>` (checkout action, issuer_url) and `/sandbox/3ds/<pay token>`: plain HTML forms, the logic
// on the server, so they work without JavaScript. The token is the order's `payToken`, never its id.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SandboxHttpError } from '../refusals/errors.ts';
import type { SandboxDeps } from '../lifecycle/deps.ts';
import { RedirectPaymentError } from '../lifecycle/redirect-payment-error.ts';
import { readBody } from '../wire/read-body.ts';
import type { SandboxOrder } from '../state/state.ts';
import { answerWhenKept, type StateKeeper } from '../store/state-keeper.ts';
import { PAGE_CSP } from './card-check-script.ts';
import { CHECK_ACTION, checkCardEntry, sendCardCheck } from './card-check.ts';
import { challengePage } from './challenge-page.ts';
import { issuerPage } from './issuer-page.ts';
import { notFoundPage, notKeptPage, resultPage } from './result-page.ts';
import { returnLocation } from './return-parameters.ts';
import { CHALLENGE_PREFIX, challengePath, PAY_PREFIX } from '../state/pay-token.ts';
import { actOnAlternative, actOnChallenge, actOnCheckout, checkoutAnswer, type ShopperAnswer } from './shopper-actions.ts';

/** Largest form a shopper page reads. */
const FORM_LIMIT = 64 * 1024;

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** True for a path a shopper page answers. */
export function isShopperPath(path: string): boolean {
  return path.startsWith(PAY_PREFIX) || path.startsWith(CHALLENGE_PREFIX);
}

function send(res: ServerResponse, status: number, html: string, csp = PAGE_CSP): void {
  res.writeHead(status, { ...HEADERS, 'content-security-policy': csp, 'content-length': Buffer.byteLength(html) }).end(html);
}

async function readForm(req: IncomingMessage, idleMs: number): Promise<Map<string, string>> {
  if (req.method !== 'POST') return new Map();
  const body = await readBody(req, { limit: FORM_LIMIT, idleMs });
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) if (!form.has(name)) form.set(name, value);
  return form;
}

/** The page of an order nobody can act on any more (or not here): its result, with the way back when there is one. */
async function settledPage(deps: SandboxDeps, order: SandboxOrder, status = 200): Promise<ShopperAnswer & { page: string }> {
  return { page: resultPage(order, await returnLocation(deps, order)), status };
}

async function payAnswer(deps: SandboxDeps, order: SandboxOrder, action: string | undefined, form: Map<string, string>): Promise<ShopperAnswer> {
  if (order.variant === 'card') return { page: notFoundPage('A direct card payment has no payment page.'), status: 404 };
  if (order.state !== 'pending') return settledPage(deps, order);
  if (order.threedsResult === 'CHALLENGE_REQUIRED') return { redirect: challengePath(order) };
  if (order.variant === 'alternative') return action === undefined ? { page: issuerPage(order), status: 200 } : actOnAlternative(deps, order, action);
  // No action: the merchant's page auto-submitted its hidden fields (or a plain GET): show the form.
  return action === undefined ? checkoutAnswer(order, form, 200) : actOnCheckout(deps, order, action, form);
}

async function challengeAnswer(deps: SandboxDeps, order: SandboxOrder, action: string | undefined): Promise<ShopperAnswer> {
  if (order.state !== 'pending' || order.threedsResult !== 'CHALLENGE_REQUIRED') return settledPage(deps, order);
  return action === undefined ? { page: challengePage(order), status: 200 } : actOnChallenge(deps, order, action);
}

/**
 * Answers a shopper page request: GET shows the page, POST with `sandbox_action` acts, then 303 back to the shop;
 * `sandbox_action=check` on a payment page answers the card entry's problems in JSON and changes nothing.
 */
export async function serveShopperPage(
  deps: SandboxDeps,
  keeper: StateKeeper,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  idleMs: number,
): Promise<void> {
  const challenge = path.startsWith(CHALLENGE_PREFIX);
  let token: string;
  try {
    token = decodeURIComponent(path.slice(challenge ? CHALLENGE_PREFIX.length : PAY_PREFIX.length));
  } catch {
    return send(res, 400, notFoundPage('The payment token in this address is not valid percent-encoding.'));
  }
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
    res.setHeader('allow', 'GET, HEAD, POST');
    return send(res, 405, notFoundPage('This page takes GET or POST.'));
  }
  const order = deps.state.ordersByPayToken.get(token);
  if (!order) return send(res, 404, notFoundPage('This address names no payment of this sandbox.'));
  let form: Map<string, string>;
  try {
    form = await readForm(req, idleMs);
  } catch (error) {
    if (error instanceof SandboxHttpError) return send(res, error.status, notFoundPage(error.message));
    throw error;
  }
  const action = form.get('sandbox_action');
  if (!challenge && action === CHECK_ACTION) {
    const check = checkCardEntry(deps, order, form);
    return sendCardCheck(res, check.status, check.answer);
  }
  const before = keeper.changeCount;
  let answer: ShopperAnswer;
  try {
    answer = challenge ? await challengeAnswer(deps, order, action) : await payAnswer(deps, order, action, form);
  } catch (error) {
    // Two tabs, or the clock, settled the order first: show where it stands.
    if (!(error instanceof RedirectPaymentError)) throw error;
    answer = await settledPage(deps, order, 409);
  }
  const location = 'back' in answer ? await returnLocation(deps, order) : null;
  // Written once a state file kept what the shopper's action changed; a page saying it was not when it could not.
  answerWhenKept(
    keeper,
    before,
    () => {
      if ('redirect' in answer) return void res.writeHead(303, { location: answer.redirect, 'cache-control': 'no-store' }).end();
      if ('back' in answer) {
        if (location) return void res.writeHead(303, { location, 'cache-control': 'no-store' }).end();
        return send(res, 200, resultPage(order, null));
      }
      send(res, answer.status, answer.page || notFoundPage('Unknown action.'), answer.csp);
    },
    () => send(res, 503, notKeptPage()),
  );
}
