// With a wrong signing secret the gateway refuses the whole request (E003) in an answer the client cannot
// verify. That is a refusal with the secret as its likely cause, not an unknown outcome; answers that may have moved
// money stay unknown (signature.response-verification.test.ts).
import { startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { SignatureError } from '../src/index.ts';
import { authorisedOrder, cardPayment, sandboxClient, sandboxSigner } from './support.ts';

describe('a wrong signing secret', () => {
  it('capture and authoriseCard: SignatureError saying the request was refused and the secret or signer is the likely cause', async () => {
    await using sandbox = await startSandbox();
    await using setup = sandboxClient(sandbox);
    const wrong = createHmacSha256Signer({ secret: 'not-the-merchant-secret' });
    await using client = sandboxClient(sandbox, { signer: wrong });
    const order = await authorisedOrder(setup);

    const capture = await client.capture({ capture_orders: [order] }).catch((e: unknown) => e);
    expect(capture).toBeInstanceOf(SignatureError);
    const error = capture as SignatureError;
    expect(error.details).toMatchObject({ operation: 'capture', reason: 'mismatch', outcome: 'refused', refusal: { code: 'E003' } });
    expect(error.message).toMatch(/refused the request as a whole/);
    expect(error.message).toMatch(/secret or signer/);
    expect(error.message).not.toMatch(/outcome as unknown/i);
    expect(sandbox.state.appliedCounts('capture').get(order.transaction_id) ?? 0).toBe(0);

    const payment = cardPayment();
    const auth = await client.authoriseCard(payment).catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(SignatureError);
    expect((auth as SignatureError).details).toMatchObject({ operation: 'authoriseCard', outcome: 'refused', refusal: { code: 'E003' } });
    expect((auth as SignatureError).message).toMatch(/secret or signer/);
    expect(JSON.stringify(auth)).not.toContain(payment.card);
  });

  it('an unverifiable answer that applied the request stays an unknown outcome', async () => {
    await using sandbox = await startSandbox({ signer: createHmacSha256Signer({ secret: 'other' }), verifier: sandboxSigner });
    await using client = sandboxClient(sandbox);
    const payment = cardPayment();
    const auth = await client.authoriseCard(payment).catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(SignatureError);
    expect((auth as SignatureError).details.outcome).toBe('unknown');
  });
});
