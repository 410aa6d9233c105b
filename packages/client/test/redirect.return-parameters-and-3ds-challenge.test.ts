// What a merchant using the client does with a redirect payment against the sandbox: verify the parameters
// the shopper brings back, and follow a direct card payment's 3-D Secure challenge (UNKNOWNS U17, U22).
import { SANDBOX_PAYMENT_STATUS, TEST_CARDS, startSandbox, type Sandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETURN_PARAMETERS, ReturnParametersError, verifyReturnParameters } from '../src/index.ts';
import { cardPayment, orderNo, sandboxClient, sandboxSigner } from './support.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

/** Posts a form to a sandbox page as the shopper's browser would, and returns where it sends the browser. */
async function submit(url: string, form: Record<string, string>): Promise<string> {
  const reply = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
    redirect: 'manual',
  });
  expect(reply.status).toBe(303);
  return reply.headers.get('location')!;
}

describe('verifyReturnParameters', () => {
  it('accepts what the sandbox sends to return_url, and refuses it altered, unsigned or incomplete', async () => {
    const client = sandboxClient(sandbox);
    const no = orderNo('CHK');
    const page = await client.checkout({
      order_no: no,
      currency: 'USD',
      amount: '12.50',
      return_url: 'https://shop.example.test/back?basket=3',
      cancel_url: 'https://shop.example.test/cancel',
    });
    const back = await submit(page.action, { sandbox_action: 'pay', card_number: TEST_CARDS.approved, expiry: '11/31', cvv: '123', holder: 'Ana Lee' });
    const verified = await verifyReturnParameters(back, { verifier: sandboxSigner, operation: 'checkout' });
    expect(verified).toEqual({
      transaction_id: expect.stringMatching(/^T\d+$/),
      order_no: no,
      amount: '12.50',
      currency: 'USD',
      result: 'authorised',
      result_info: '0000:Success',
    });
    expect(Object.keys(verified)).toEqual([...RETURN_PARAMETERS]);

    const url = new URL(back);
    url.searchParams.set('result', 'declined');
    await expect(verifyReturnParameters(url.searchParams, { verifier: sandboxSigner, operation: 'checkout' })).rejects.toMatchObject({
      name: 'ReturnParametersError',
      code: 'GW_SIGNATURE',
      details: { reason: 'mismatch' },
    });
    const wrongSecret = createHmacSha256Signer({ secret: 'not-the-sandbox-secret' });
    await expect(verifyReturnParameters(back, { verifier: wrongSecret, operation: 'checkout' })).rejects.toBeInstanceOf(ReturnParametersError);
    url.searchParams.delete('encryption_data');
    await expect(verifyReturnParameters(url.search, { verifier: sandboxSigner, operation: 'checkout' })).rejects.toMatchObject({
      details: { reason: 'missing' },
    });
    url.searchParams.delete('amount');
    const error = await verifyReturnParameters(url.searchParams, { verifier: sandboxSigner, operation: 'checkout' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ details: { reason: 'incomplete', absent: ['amount'] } });
    expect((error as Error).message).toMatch(/query the order by order_no/);
  });

  it('verifies the return of an alternative-method order as one of authoriseAlternative', async () => {
    const client = sandboxClient(sandbox);
    const respon = await client.authoriseAlternative({
      order_no: orderNo('ALT'),
      currency: 'BRL',
      amount: '80.00',
      payment_method: 'PIX',
      return_url: 'https://shop.example.test/back',
    });
    const back = await submit(respon.issuer_url!, { sandbox_action: 'decline' });
    expect(await verifyReturnParameters(back, { verifier: sandboxSigner, operation: 'authoriseAlternative' })).toMatchObject({ result: 'declined' });
  });
});

describe('a direct card payment that asks for a 3-D Secure challenge', () => {
  it('comes back from the client pending with a challenge_url; the query shows the outcome once the shopper completes it', async () => {
    const client = sandboxClient(sandbox);
    const payment = cardPayment({ card: TEST_CARDS.threeDsRequired, open3d: 'do3DS' });
    const respon = (await client.authoriseCard(payment)) as Record<string, any>;
    expect(respon).toMatchObject({ order_status: '2', threeds_result: 'CHALLENGE_REQUIRED', transaction_id: expect.stringMatching(/^T/) });
    expect(respon.challenge_url).toMatch(new RegExp(`^${sandbox.url}/sandbox/3ds/[A-Za-z0-9_-]{22}$`));
    const before = await client.query({ order_no: payment.order_no });
    expect(before.orders_list?.[0]).toMatchObject({ payment_status: SANDBOX_PAYMENT_STATUS.pending });
    const done = await fetch(respon.challenge_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'sandbox_action=complete',
    });
    expect(done.status).toBe(200);
    const after = await client.query({ order_no: payment.order_no });
    expect(after.orders_list?.[0]).toMatchObject({ payment_status: SANDBOX_PAYMENT_STATUS.authorised, is3ds: '1' });
    const capture = await client.capture({
      capture_orders: [{ transaction_id: respon.transaction_id, order_no: payment.order_no, currency: 'USD', amount: payment.amount }],
    });
    expect(capture.capture_orders?.[0]).toMatchObject({ capture_status: '1' });
  });
});
