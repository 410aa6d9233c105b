// Telemetry leaves the process: no card number, security code, expiry, signature or signer secret may be in any span
// attribute, event, status or metric point the client produces, whatever the card and whatever the call came to.
import { SANDBOX_DEFAULT_SECRET, startSandbox } from '@gw/sandbox';
import { captureTelemetry } from '@gw/test-support/telemetry';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { cardPayment, clientSpans, reply, sandboxClient, startForwardingServer } from './support.ts';

const telemetry = captureTelemetry();
afterAll(() => telemetry.stop());

/** A 16-digit card number with a valid Luhn check digit. */
const cardNumbers = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 14, maxLength: 14 }).map((digits) => {
  const body = [4, ...digits];
  const sum = body
    .slice()
    .reverse()
    .reduce((total, digit, index) => total + (index % 2 === 0 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit), 0);
  return `${body.join('')}${(10 - (sum % 10)) % 10}`;
});

/** Every quoted string value in a JSON text: an expiry or a CVV is a short number, found only as a value of its own. */
function quotedValues(text: string): Set<string> {
  return new Set([...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!));
}

function signatureOf(text: string): string | undefined {
  const match = /"encryption_data"\s*:\s*"([^"]+)"/.exec(text) ?? /encryption_data=([^&]+)/.exec(text);
  return match?.[1] && decodeURIComponent(match[1]);
}

describe('no card data, signature or secret in what the client records', () => {
  it('card payments (approved, refused as answers, and a connection lost after sending): everything() holds none of them', async () => {
    await using sandbox = await startSandbox();
    const signatures: string[] = [];
    let lose = false;
    await using front = await startForwardingServer(sandbox, (request, text, res) => {
      for (const signature of [signatureOf(request.body), signatureOf(text)]) if (signature) signatures.push(signature);
      if (lose) res.socket?.destroy();
      else reply(res, 200, text, 'application/json');
    });
    await using client = sandboxClient(front, { telemetry: { propagate: true }, retry: { attempts: 1 } });
    await fc.assert(
      fc.asyncProperty(
        cardNumbers,
        fc.integer({ min: 100, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 2030, max: 2045 }),
        fc.boolean(),
        async (card, cvv, month, year, lost) => {
          telemetry.reset();
          lose = lost;
          const payment = cardPayment({ card, security_code: String(cvv), expiration_month: String(month).padStart(2, '0'), expiration_year: String(year) });
          await client.authoriseCard(payment).catch((error: unknown) => error);
          expect(clientSpans(telemetry).length).toBeGreaterThan(0);
          const text = await telemetry.everything();
          expect(text).not.toContain(card);
          expect(text).not.toContain(SANDBOX_DEFAULT_SECRET);
          for (const signature of signatures) expect(text).not.toContain(signature);
          const values = quotedValues(text);
          for (const secret of [payment.security_code, payment.expiration_month, payment.expiration_year]) expect(values).not.toContain(secret);
        },
      ),
      { numRuns: 25 },
    );
    expect(signatures.length).toBeGreaterThanOrEqual(25);
  });
});
