import { GW_ERROR_CODES, GwError } from '@gw/types';

/** A `createClient` option is missing or invalid; the message names the option. */
export class ConfigError extends GwError<{ option: string }> {
  override readonly name = 'ConfigError';

  constructor(option: string, message: string) {
    super(GW_ERROR_CODES.config, `createClient: ${option} ${message}`, { option });
  }
}
