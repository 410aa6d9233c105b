import { describe, expect, it } from 'vitest';
import * as root from '../src/index.ts';
import * as conformance from '../src/conformance/index.ts';

describe('@gw/signer-interface public exports', () => {
  it('are exactly these runtime values (types are pinned by the typecheck of dependants)', () => {
    expect(Object.keys(root).sort()).toEqual([
      'SignableMessageError',
      'SignerConfigError',
      'createHmacSha256Signer',
      'createSha256ConcatSigner',
      'createSignableMessage',
      'flattenRecord',
      'hmacSha256SigningText',
      'omitEncryptionData',
      'signaturesMatch',
    ]);
  });

  it('keep the vitest-dependent conformance kit behind @gw/signer-interface/conformance', () => {
    expect(Object.keys(conformance).sort()).toEqual(['SIGNER_CONFORMANCE_CHECK_IDS', 'checkSignerConformance', 'runSignerConformance']);
  });
});
