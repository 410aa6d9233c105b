import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SignableMessage, Verifier } from '@gw/signer-interface';
import { encodeRequestBody } from '@gw/xml-codec';
import { startSandbox } from '../src/index.ts';
import { cardPayment, merchant, post, signer } from './harness.ts';

const SECRET = 'body-secret';
const mac = (bytes: Uint8Array | string) => createHmac('sha256', SECRET).update(bytes).digest('hex');

/** A verifier that signs the body bytes, as a gateway signing bodies would: what the sandbox hands it is what it checks. */
function bodyVerifier(seen: string[]): Verifier {
  return {
    verify(message: SignableMessage, signature: string) {
      seen.push(Buffer.from(message.body).toString('utf8'));
      return mac(message.body) === signature;
    },
  };
}

describe('a body-based verifier', () => {
  it('is given the request body re-encoded as it came, without encryption_data, in JSON and in a form', async () => {
    const seen: string[] = [];
    await using sandbox = await startSandbox({ signer, verifier: bodyVerifier(seen) });
    const capture = { ...merchant, capture_orders: [{ transaction_id: 'T-BODY', order_no: 'BODY-1', currency: 'USD', amount: '10.00' }] };
    const captureBody = encodeRequestBody('capture', capture);
    const captured = await post(sandbox, '/v1/capture', encodeRequestBody('capture', { ...capture, encryption_data: mac(captureBody) }));
    expect(captured.status).toBe(200);
    expect(captured.json.return_status).toBe('1');
    expect(captured.json.capture_orders[0].error_message).toMatch(/^E201/);

    const payment = { ...merchant, ...cardPayment() };
    const formBody = encodeRequestBody('authoriseCard', payment, { encoding: 'form' });
    const paid = await post(
      sandbox,
      '/v1/authorise',
      encodeRequestBody('authoriseCard', { ...payment, encryption_data: mac(formBody) }, { encoding: 'form' }),
      'application/x-www-form-urlencoded',
    );
    expect(paid.status).toBe(200);
    expect(paid.text).toContain('<order_status>1</order_status>');
    expect(seen).toEqual([captureBody, formBody]);

    const forged = await post(sandbox, '/v1/capture', encodeRequestBody('capture', { ...capture, encryption_data: mac(`${captureBody} `) }));
    expect(forged.json.return_message).toMatch(/^E003/);
  });
});
