// The hosted checkout page (`/sandbox/pay/<pay token>` of a checkout order): summary, card entry, Pay and Cancel.
import type { SandboxOrder } from '../state/state.ts';
import { CARD_CHECK_SCRIPT } from './card-check-script.ts';
import { payPath } from '../state/pay-token.ts';
import { escapeHtml, layout, problemList } from './html.ts';
import { orderSummary } from './order-summary.ts';
import { testCardList } from './test-card-list.ts';

/**
 * The checkout page's HTML (served with `CHECKOUT_PAGE_CSP`). `problems` are shown above the form. After a try the
 * server refused, the name on the card is kept; card number, expiry and CVV are card data and are never written back
 * into a page. With JavaScript the page's check script asks the sandbox first and keeps all but the CVV in the inputs.
 */
export function checkoutPage(order: SandboxOrder, form: ReadonlyMap<string, string>, problems: readonly string[] = []): string {
  const action = payPath(order);
  const card = `<section aria-labelledby="card-title"><h2 id="card-title">Card details</h2><div id="card-problems">${problemList(problems)}</div>
<form id="card-form" method="post" action="${escapeHtml(action)}">
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 5678 9012 3456" required>
<div class="row">
<div><label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="12/30" required></div>
<div><label for="cvv">CVV</label><input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required></div>
</div>
<label for="holder">Name on card</label>
<input id="holder" name="holder" autocomplete="cc-name" placeholder="Ana Lee" value="${escapeHtml(form.get('holder') ?? '')}" required>
<div class="actions">
<button type="submit" name="sandbox_action" value="pay">Pay ${escapeHtml(order.amount)} ${escapeHtml(order.currency)}</button>
<button type="submit" name="sandbox_action" value="cancel" class="secondary" formnovalidate>Cancel</button>
</div>
</form></section>
<script>${CARD_CHECK_SCRIPT}</script>`;
  return layout(`Pay ${order.orderNo}`, `${orderSummary(order, form)}${card}${testCardList()}`);
}
