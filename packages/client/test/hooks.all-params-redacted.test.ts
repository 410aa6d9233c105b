// Redaction reaches card data inside the query string of the checkout page's `allParams`, not only members named
// after card fields.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { redactRecord, type ResponseEvent } from '../src/index.ts';
import { CARD, CVV, reply, sandboxClient, startRecordingServer } from './support.ts';

const allParams = `order_no=O1&amount=1.00&card=${CARD}&security_code=${CVV}&expiration_month=12&expiration_year=2031&cardNo=${encodeURIComponent(CARD.replace(/(\d{4})/g, '$1 ').trim())}`;
const page = `<html><body><form action="https://pay.example.test/p" method="post">
<input type="hidden" name="order_no" value="O1"><input type="hidden" name="allParams" value="${allParams.replaceAll('&', '&amp;')}">
</form></body></html>`;

describe('card data inside allParams', () => {
  it('never reaches an onResponse payload (a gateway that echoes it into the page)', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 200, page, 'text/html'));
    const events: ResponseEvent[] = [];
    await using client = sandboxClient(server, { hooks: { onResponse: (event) => events.push(event) } });
    const result = await client.checkout({ order_no: 'O1', amount: '1.00' });
    expect(result.allParams?.params.order_no).toBe('O1'); // the caller's own result is untouched
    const shown = [JSON.stringify(events), inspect(events, { depth: 10 })].join('\n');
    expect(events).toHaveLength(1);
    expect(shown).toContain('order_no=O1');
    expect(shown).not.toContain(CARD);
    expect(shown).not.toContain('4111 1111');
    expect(shown).not.toMatch(new RegExp(`security_code=${CVV}`));
    expect(shown).not.toContain('expiration_year=2031');
  });

  it('redactRecord redacts inside an allParams member', () => {
    const redacted = redactRecord({ allParams, order_no: 'O1' });
    expect(redacted.allParams).toContain('order_no=O1');
    expect(redacted.allParams).not.toContain(CARD);
    expect(redacted.allParams).toContain('security_code=[redacted]');
  });
});
