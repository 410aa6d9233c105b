import { GW_ERROR_CODES, GwError } from '@gw/types';

/** The settings of a batch cannot run it: every problem found, before any file is opened or request sent. */
export class BatchSettingsError extends GwError<{ problems: readonly string[] }> {
  override readonly name = 'BatchSettingsError';

  constructor(problems: readonly string[]) {
    super(GW_ERROR_CODES.config, `batch settings: ${problems.length} problem(s): ${problems.join('; ')}`, { problems: [...problems] });
  }
}
