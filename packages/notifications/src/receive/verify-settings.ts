import type { Verifier } from '@gw/signer-interface';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { NotificationDecoder } from '../format/format.ts';
import { decodeGwNotification } from '../format/gw-envelope.ts';

/** How notifications are checked. Only `verifiers` is required. */
export interface VerifyOptions {
  /**
   * One or more verifiers; a notification is accepted when any of them verifies any of its signatures. List the old
   * and the new key while the sender rotates (e.g. `[createHmacSha256Signer({ secret: NEW }), createHmacSha256Signer({ secret: OLD })]`).
   */
  readonly verifiers: readonly Verifier[];
  /** Largest distance between the signed time and now, in seconds. Default 300 (UNKNOWNS U46). */
  readonly toleranceSeconds?: number;
  /** The receiver's clock. Default `() => new Date()`. */
  readonly clock?: () => Date;
  /** Reads the raw notification. Default: the gw envelope with `gw-signature` (`decodeGwNotification`). */
  readonly decode?: NotificationDecoder;
  /** Largest body in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number;
}

/** The options with their defaults filled in, checked once. */
export interface VerifySettings {
  readonly verifiers: readonly Verifier[];
  readonly toleranceMs: number;
  readonly clock: () => Date;
  readonly decode: NotificationDecoder;
  readonly maxBodyBytes: number;
}

/** Checks the options, refusing every problem at once (`GW_CONFIG`). */
export function verifySettings(options: VerifyOptions, otherProblems: readonly string[] = []): VerifySettings {
  const problems: string[] = [...otherProblems];
  const verifiers = options?.verifiers;
  if (!Array.isArray(verifiers) || verifiers.length === 0) problems.push('verifiers must be a non-empty array of Verifier');
  else
    verifiers.forEach(
      (v: unknown, i) => typeof (v as Verifier | null)?.verify !== 'function' && problems.push(`verifiers[${i}] has no verify(message, signature) method`),
    );
  const tolerance = options?.toleranceSeconds ?? 300;
  if (typeof tolerance !== 'number' || !(tolerance > 0) || !Number.isFinite(tolerance)) problems.push('toleranceSeconds must be a positive number of seconds');
  const maxBodyBytes = options?.maxBodyBytes ?? 1024 * 1024;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) problems.push('maxBodyBytes must be a positive integer');
  if (problems.length > 0) throw new GwError(GW_ERROR_CODES.config, `Notification receiver options: ${problems.join('; ')}.`, { problems });
  return { verifiers, toleranceMs: tolerance * 1000, clock: options.clock ?? (() => new Date()), decode: options.decode ?? decodeGwNotification, maxBodyBytes };
}
