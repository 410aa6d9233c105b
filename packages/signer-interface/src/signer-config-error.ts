import { GW_ERROR_CODES, GwError } from '@gw/types';

/** Bad options for a signer or the conformance kit (a missing or empty secret, a bad field list); never echoes a secret. */
export class SignerConfigError extends GwError<{ option: string; problem: string }> {
  override readonly name = 'SignerConfigError';

  constructor(details: { option: string; problem: string }) {
    super(GW_ERROR_CODES.config, `${details.option}: ${details.problem}`, details);
  }
}
