import { GW_ERROR_CODES, GwError } from '@gw/types';

/** A `stateFile` the sandbox cannot use (corrupt, another program's, a newer format, unreadable): never a silent fresh start. */
export class SandboxStateFileError extends GwError<{ file: string; reason: string }> {
  override readonly name = 'SandboxStateFileError';

  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super(
      GW_ERROR_CODES.config,
      `sandbox state file ${file}: ${reason}. Point --state (stateFile) at another path to start afresh, or move this file away; the sandbox does not overwrite it`,
      { file, reason },
      options,
    );
  }
}
