import type { SandboxOrder } from '../state/state.ts';
import { escapeHtml, summaryList } from './html.ts';

/** The items of a `cart_items` field (JSON text in the checkout form), as "name × quantity" lines; [] when unreadable. */
function cartLines(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const items: unknown = JSON.parse(value);
    if (!Array.isArray(items)) return [];
    return items.slice(0, 20).flatMap((item) => {
      const data = (item as { basic_item_data?: { name?: unknown; quantity?: unknown } } | null)?.basic_item_data;
      return data && typeof data.name === 'string' ? [`${data.name} × ${typeof data.quantity === 'string' ? data.quantity : '1'}`] : [];
    });
  } catch {
    return [];
  }
}

/**
 * The order summary: amount and currency from the order the merchant signed; shopper and items from the form's
 * fields (the auto-submitted checkout page) or, without them, from the signed request.
 */
export function orderSummary(order: SandboxOrder, form: ReadonlyMap<string, string>): string {
  const field = (name: string): string => form.get(name) ?? (typeof order.record[name] === 'string' ? (order.record[name] as string) : '');
  const shopper = [field('first_name'), field('last_name')].filter(Boolean).join(' ');
  const rows: [string, string][] = [
    ['Merchant', order.merchantId],
    ['Order number', order.orderNo],
  ];
  if (shopper) rows.push(['Shopper', shopper]);
  if (field('shopper_email')) rows.push(['Email', field('shopper_email')]);
  const items = cartLines(form.get('cart_items') ?? (order.record.cart_items ? JSON.stringify(order.record.cart_items) : undefined));
  const itemList = items.length > 0 ? `<h2>Items</h2><ul>${items.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` : '';
  return `<section aria-labelledby="summary-title"><h1 id="summary-title">Checkout</h1><p class="total" aria-label="Total">${escapeHtml(order.amount)} ${escapeHtml(order.currency)}</p>${summaryList(rows)}${itemList}</section>`;
}
