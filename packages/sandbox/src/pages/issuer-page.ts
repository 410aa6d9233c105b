// The alternative method's `issuer_url` page (`/sandbox/pay/<pay token>` of an alternative-method order).
import type { SandboxOrder } from '../state/state.ts';
import { payPath } from '../state/pay-token.ts';
import { escapeHtml, layout, summaryList } from './html.ts';

/** The issuer page's HTML: the payment and four choices (Approve, Decline, Cancel, Leave pending). */
export function issuerPage(order: SandboxOrder): string {
  const method = typeof order.record.payment_method === 'string' ? order.record.payment_method : 'alternative method';
  const action = payPath(order);
  const body = `<section aria-labelledby="issuer-title"><h1 id="issuer-title">${escapeHtml(method)} payment</h1>
<p class="total">${escapeHtml(order.amount)} ${escapeHtml(order.currency)}</p>
${summaryList([
  ['Merchant', order.merchantId],
  ['Order number', order.orderNo],
  ['Method', method],
])}
<p class="note">This page stands in for the shopper's bank or wallet. Choose what the shopper does.</p>
<form method="post" action="${escapeHtml(action)}">
<div class="actions grid">
<button type="submit" name="sandbox_action" value="approve">Approve</button>
<button type="submit" name="sandbox_action" value="decline" class="danger">Decline</button>
<button type="submit" name="sandbox_action" value="cancel" class="secondary">Cancel</button>
<button type="submit" name="sandbox_action" value="leave" class="secondary">Leave pending</button>
</div>
</form></section>`;
  return layout(`${method} ${order.orderNo}`, body);
}
