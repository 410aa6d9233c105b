import { createHmac } from 'node:crypto';
import { signaturesMatch, type SignableMessage, type Signer, type Verifier } from '../../src/index.ts';

/** A team-style async signer: HMAC-SHA256 (WebCrypto, so every call is a promise) over the raw body, base64. */
export function createAsyncBodyHmacSigner(secret: string): Signer & Verifier {
  const key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const sign = async (message: SignableMessage): Promise<string> => {
    const bytes = await crypto.subtle.sign('HMAC', await key, message.body.slice());
    return Buffer.from(bytes).toString('base64');
  };
  return {
    sign,
    verify: async (message, signature) => signaturesMatch({ expected: await sign(message), received: signature }),
  };
}

/** A plain HMAC over the `path=value` pairs chosen by `keep`, for building broken signers. */
export function createPairsHmacSigner(options: { secret: string; keep?: (path: string) => boolean; transform?: (value: string) => string }): Signer & Verifier {
  const { secret, keep = () => true, transform = (v) => v } = options;
  const sign = (message: SignableMessage): string =>
    createHmac('sha256', secret)
      .update(JSON.stringify(message.fields.filter((f) => keep(f.path)).map((f) => [f.path, transform(f.value)])))
      .digest('hex');
  return { sign, verify: (message, signature) => signaturesMatch({ expected: sign(message), received: signature }) };
}
