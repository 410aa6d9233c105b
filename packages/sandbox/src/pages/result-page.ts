// What the shopper sees when there is no merchant address to go back to, or the order was settled already.
import type { SandboxOrder } from '../state/state.ts';
import { escapeHtml, layout, summaryList } from './html.ts';

const HEADLINES: Readonly<Record<SandboxOrder['state'], string>> = {
  pending: 'Payment pending',
  authorised: 'Payment authorised',
  declined: 'Payment declined',
  cancelled: 'Payment cancelled',
  expired: 'Payment expired',
  captured: 'Payment captured',
  partially_refunded: 'Payment partly refunded',
  refunded: 'Payment refunded',
};

/** A page stating the order's state, with a link back to the shop when there is one. */
export function resultPage(order: SandboxOrder, backTo: string | null, note = 'You can close this window and return to the shop.'): string {
  const back = backTo
    ? `<div class="actions"><a class="button" href="${escapeHtml(backTo)}">Return to the shop</a></div>`
    : `<p class="note">${escapeHtml(note)}</p>`;
  const split = /^([^:]*):(.*)$/s.exec(order.resultInfo);
  const result: [string, string][] = split
    ? [
        ['Result', split[2]!],
        ['Code', split[1]!],
      ]
    : [['Result', order.resultInfo]];
  const body = `<section aria-labelledby="result-title"><h1 id="result-title">${escapeHtml(HEADLINES[order.state])}</h1>
${summaryList([['Order number', order.orderNo], ['Amount', `${order.amount} ${order.currency}`], ...result])}${back}</section>`;
  return layout(HEADLINES[order.state], body);
}

/** A short page for an address that names no payment (404) or a malformed one (400). */
export function notFoundPage(message: string): string {
  return layout('Not found', `<section><h1>No such payment</h1><p>${escapeHtml(message)}</p></section>`);
}

/** The page of a shopper's action the sandbox could not keep (its state file cannot be written): nothing was applied. */
export function notKeptPage(): string {
  return layout(
    'Try again later',
    '<section><h1>Not done: try again later</h1><p>The sandbox could not keep this change (its state file cannot be written, a full disk?). Nothing was applied.</p></section>',
  );
}
