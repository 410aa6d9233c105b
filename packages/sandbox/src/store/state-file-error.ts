import { GW_ERROR_CODES, GwError } from '@gw/types';

/** A `stateFile` the sandbox cannot use (corrupt, another program's, a newer format, unreadable): never a silent fresh start. */
export class SandboxStateFileError extends GwError<{ file: string; reason: string }> {
  override readonly name: string = 'SandboxStateFileError';

  constructor(file: string, reason: string, options?: { cause?: unknown; advice?: string }) {
    super(
      GW_ERROR_CODES.config,
      `sandbox state file ${file}: ${reason}. ${options?.advice ?? 'Point --state (stateFile) at another path to start afresh, or move this file away; the sandbox does not overwrite it'}`,
      { file, reason },
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
  }
}

/**
 * A state file that cannot be proven to hold every answered change (a sandbox was not stopped cleanly and what it
 * wrote last may sit in a `-wal` beside the file, missing, truncated or from another copy): refused, never opened on
 * as it is, because answered payments would vanish and their transaction ids be issued again.
 */
export class SandboxStateIncompleteError extends SandboxStateFileError {
  override readonly name: string = 'SandboxStateIncompleteError';
  /** The side files found beside the state file, e.g. `team.sqlite-wal` (empty when one is missing). */
  readonly sideFiles: readonly string[];

  constructor(file: string, reason: string, sideFiles: readonly string[]) {
    super(file, reason, {
      advice: `Restore the file together with its ${file}-wal as they were when the sandbox stopped (copied while no sandbox runs), or open it once with the @gw/sandbox version that wrote it and stop that with Ctrl-C; or start a new state: point --state (stateFile) at another path or move these files away. The sandbox changes none of them`,
    });
    this.sideFiles = Object.freeze([...sideFiles]);
  }
}
