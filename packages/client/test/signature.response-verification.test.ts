import { startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { encodeRespon } from '@gw/xml-codec';
import { describe, expect, it } from 'vitest';
import { SignatureError } from '../src/index.ts';
import { authorisedOrder, cardPayment, reply, sandboxClient, sandboxSigner, startForwardingServer, startRecordingServer } from './support.ts';

describe('response signatures (UNKNOWNS U42)', () => {
  it('a response signed with another secret is refused with SignatureError; the capture did happen', async () => {
    await using sandbox = await startSandbox({ signer: createHmacSha256Signer({ secret: 'other' }), verifier: sandboxSigner });
    await using unchecked = sandboxClient(sandbox, { verifyResponses: false });
    await using client = sandboxClient(sandbox);
    const order = await authorisedOrder(unchecked);
    const error = await client.capture({ capture_orders: [order] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignatureError);
    const signature = error as SignatureError;
    expect(signature.code).toBe('GW_SIGNATURE');
    expect(signature.details).toMatchObject({
      operation: 'capture',
      reason: 'mismatch',
      outcome: 'unknown',
      identifiers: { transaction_id: [order.transaction_id] },
    });
    expect(signature.response).toMatchObject({ return_status: '1', capture_orders: [{ capture_status: '1' }] });
    expect(sandbox.state.appliedCounts('capture').get(order.transaction_id)).toBe(1);
    // The card respon, the refund and the payout are signed too; query and checkout carry no signature to check.
    await expect(client.authoriseCard(cardPayment())).rejects.toBeInstanceOf(SignatureError);
    await expect(client.query({ transaction_id: [order.transaction_id] })).resolves.toMatchObject({ return_status: '1' });
    await expect(client.checkout({ order_no: `SIG-${process.pid}`, amount: '1.00', currency: 'USD' })).resolves.toMatchObject({ method: 'POST' });
  });

  it('verifyResponses: false accepts responses that carry no (or a foreign) signature', async () => {
    await using sandbox = await startSandbox({ signer: createHmacSha256Signer({ secret: 'other' }), verifier: sandboxSigner });
    await using client = sandboxClient(sandbox, { verifyResponses: false });
    const order = await authorisedOrder(client);
    await expect(client.capture({ capture_orders: [order] })).resolves.toMatchObject({ return_status: '1' });
  });

  it('a tampered response (one element changed on the way) fails verification', async () => {
    await using sandbox = await startSandbox();
    await using setup = sandboxClient(sandbox);
    const order = await authorisedOrder(setup);
    // A man in the middle: forwards to the sandbox, then turns the element's failure into a success.
    await using proxy = await startForwardingServer(sandbox, (_request, text, res) =>
      reply(res, 200, text.replace('"capture_status":"1"', '"capture_status":"0"').replace('"amount":"40.00"', '"amount":"4000.00"')),
    );
    await using client = sandboxClient(proxy);
    const error = await client.capture({ capture_orders: [order] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignatureError);
    expect((error as SignatureError).details.reason).toBe('mismatch');
  });

  it('a required signature that is missing is refused; an if-present one may be absent', async () => {
    await using server = await startRecordingServer((request, res) => {
      if (request.path === '/v1/capture')
        reply(res, 200, JSON.stringify({ merchant_id: 'M100200', account_id: 'A300400', return_status: '1', return_message: 'OK', capture_orders: [] }));
      else reply(res, 200, encodeRespon({ order_no: 'A1', issuer_url: 'https://pay.example.test/1' }), 'application/xml');
    });
    await using client = sandboxClient(server);
    const error = await client
      .capture({ capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignatureError);
    expect((error as SignatureError).details.reason).toBe('missing');
    await expect(client.authoriseAlternative({ order_no: 'A1', amount: '1.00', payment_method: 'PIX' })).resolves.toEqual({
      order_no: 'A1',
      issuer_url: 'https://pay.example.test/1',
    });
  });

  it('an if-present signature that is present must verify', async () => {
    await using server = await startRecordingServer((_request, res) => {
      reply(res, 200, encodeRespon({ order_no: 'A1', issuer_url: 'https://pay.example.test/1', encryption_data: 'f00d' } as never), 'application/xml');
    });
    await using client = sandboxClient(server);
    const error = await client.authoriseAlternative({ order_no: 'A1', amount: '1.00', payment_method: 'PIX' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignatureError);
  });
});
