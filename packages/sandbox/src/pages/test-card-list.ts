import { TEST_CARD_TABLE } from '../cards/test-cards.ts';
import { escapeHtml } from './html.ts';

/** The test-card table as an HTML section (the same rows as the README). */
export function testCardList(): string {
  const rows = TEST_CARD_TABLE.map(
    (row) => `<tr><td>${row.isNumber ? `<code>${escapeHtml(row.card)}</code>` : escapeHtml(row.card)}</td><td>${escapeHtml(row.description)}</td></tr>`,
  ).join('');
  return `<section aria-labelledby="cards-title"><h2 id="cards-title">Test cards</h2><p class="note">Any future expiry date and any 3- or 4-digit CVV.</p><table><thead><tr><th scope="col">Card / amount</th><th scope="col">Outcome</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}
