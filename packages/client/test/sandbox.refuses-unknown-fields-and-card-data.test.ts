// The sandbox refuses names the spec does not list (unless started with unknownFields: 'accept') and card
// data on operations that do not carry it, whatever that option says.
import { startSandbox } from '@gw/sandbox';
import { createSignableMessage } from '@gw/signer-interface';
import { encodeRequestBody } from '@gw/xml-codec';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/index.ts';
import { CARD, CVV, merchant, orderNo, sandboxClient, sandboxSigner } from './support.ts';

/** A correctly signed checkout body, sent without the client's own checks. */
async function postSignedCheckout(url: string, extra: Record<string, unknown>) {
  const record = { merchant_id: merchant.merchantId, account_id: merchant.accountId, order_no: orderNo('RAW'), currency: 'USD', amount: '1.00', ...extra };
  const signature = sandboxSigner.sign(createSignableMessage({ operation: 'checkout', record, body: () => encodeRequestBody('checkout', record) }));
  const answer = await fetch(`${url}/v1/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: encodeRequestBody('checkout', { ...record, encryption_data: signature }),
  });
  return { status: answer.status, text: await answer.text() };
}

describe('the sandbox and names the spec does not list', () => {
  it('refuses them by default (HTTP 400 naming each), accepts them with unknownFields: accept', async () => {
    await using strict = await startSandbox();
    await using loose = await startSandbox({ unknownFields: 'accept' });
    await using toStrict = sandboxClient(strict, { unknownFields: 'send' });
    await using toLoose = sandboxClient(loose, { unknownFields: 'send' });
    const error = await toStrict
      .capture({ capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00', amout: '1.00' } as never] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).details.bodyExcerpt).toContain('capture_orders[0].amout');
    await expect(toLoose.checkout({ order_no: orderNo('EXTRA'), amount: '1.00', currency: 'USD', partner_ref: 'P' } as never)).resolves.toMatchObject({
      method: 'POST',
    });
  });

  it('refuses card data on checkout either way, and never writes it into a page or its log', async () => {
    for (const unknownFields of ['refuse', 'accept'] as const) {
      await using sandbox = await startSandbox({ unknownFields });
      const answer = await postSignedCheckout(sandbox.url, { card: CARD, security_code: CVV });
      expect(answer.status).toBe(400);
      expect(answer.text).not.toContain(CARD);
      expect(answer.text).toContain('card');
      expect(JSON.stringify(sandbox.state.requests)).not.toContain(CARD);
    }
  });
});
