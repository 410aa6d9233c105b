import { createHmacSha256Signer, createSha256ConcatSigner } from '../src/index.ts';
import { runSignerConformance } from '../src/conformance/index.ts';
import { createAsyncBodyHmacSigner } from './support/team-signers.ts';

// The kit as a team uses it: one call at the top level of a test file registers one test per check.

const hmac = createHmacSha256Signer({ secret: 'conformance-secret' });
runSignerConformance({
  name: 'reference HMAC-SHA256 signer (sync)',
  signer: hmac,
  verifier: hmac,
  signerWithOtherSecret: createHmacSha256Signer({ secret: 'another-secret' }),
});

const concat = createSha256ConcatSigner({ secret: 'conformance-secret' });
runSignerConformance({
  name: 'reference SHA-256 concatenation signer (sync)',
  signer: concat,
  verifier: concat,
  signerWithOtherSecret: createSha256ConcatSigner({ secret: 'another-secret' }),
});

const asyncBody = createAsyncBodyHmacSigner('conformance-secret');
runSignerConformance({
  name: 'team-style WebCrypto HMAC over the raw body (async)',
  signer: asyncBody,
  verifier: asyncBody,
  signerWithOtherSecret: createAsyncBodyHmacSigner('another-secret'),
});

// A chosen-fields algorithm declares what it covers; tamper checks leave the rest out.
const chosen = ['merchant_id', 'account_id'];
const chosenFields = createSha256ConcatSigner({ secret: 'conformance-secret', fields: chosen });
runSignerConformance({
  name: 'chosen-fields SHA-256 concatenation, with signedFields',
  signer: chosenFields,
  verifier: chosenFields,
  signerWithOtherSecret: createSha256ConcatSigner({ secret: 'another-secret', fields: chosen }),
  signedFields: (path) => chosen.includes(path),
});
