// The 3-D Secure challenge page (`/sandbox/3ds/<pay token>`): the issuer's check, Complete or Fail.
import type { SandboxOrder } from '../state/state.ts';
import { challengePath } from '../state/pay-token.ts';
import { escapeHtml, layout, summaryList } from './html.ts';

/** The challenge page's HTML. */
export function challengePage(order: SandboxOrder): string {
  const action = challengePath(order);
  const body = `<section aria-labelledby="challenge-title"><h1 id="challenge-title">3-D Secure check</h1>
<p>Your bank asks you to confirm this payment.</p>
${summaryList([
  ['Merchant', order.merchantId],
  ['Order number', order.orderNo],
  ['Amount', `${order.amount} ${order.currency}`],
  ['Card', order.maskedCard],
])}
<p class="note">In the sandbox there is no code to type: choose how the check ends.</p>
<form method="post" action="${escapeHtml(action)}">
<div class="actions">
<button type="submit" name="sandbox_action" value="complete">Complete</button>
<button type="submit" name="sandbox_action" value="fail" class="danger">Fail</button>
</div>
</form></section>`;
  return layout(`3-D Secure ${order.orderNo}`, body);
}
