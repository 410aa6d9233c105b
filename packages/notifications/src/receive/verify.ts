import type { Verifier } from '@gw/signer-interface';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { NotificationEvent } from '../envelope/event.ts';
import { NotificationRefusedError } from '../errors.ts';
import type { DecodeInput, DecodedNotification, NotificationDecoder } from '../format/format.ts';
import { decodeGwNotification, readGwNotification } from '../format/gw-envelope.ts';

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

// The default clock; recognised by identity so that the receiver reads the time with Date.now() (no Date per call).
const DEFAULT_CLOCK = (): Date => new Date();

/** Checks the options, refusing every problem at once (`GW_CONFIG`). */
export function verifySettings(options: VerifyOptions, otherProblems: readonly string[] = []): VerifySettings {
  const problems: string[] = [...otherProblems];
  const verifiers = options?.verifiers;
  if (!Array.isArray(verifiers) || verifiers.length === 0) problems.push('verifiers must be a non-empty array of Verifier');
  else verifiers.forEach((v: unknown, i) => typeof (v as Verifier | null)?.verify !== 'function' && problems.push(`verifiers[${i}] has no verify(message, signature) method`));
  const tolerance = options?.toleranceSeconds ?? 300;
  if (typeof tolerance !== 'number' || !(tolerance > 0) || !Number.isFinite(tolerance)) problems.push('toleranceSeconds must be a positive number of seconds');
  const maxBodyBytes = options?.maxBodyBytes ?? 1024 * 1024;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) problems.push('maxBodyBytes must be a positive integer');
  if (problems.length > 0) throw new GwError(GW_ERROR_CODES.config, `Notification receiver options: ${problems.join('; ')}.`, { problems });
  return { verifiers, toleranceMs: tolerance * 1000, clock: options.clock ?? DEFAULT_CLOCK, decode: options.decode ?? decodeGwNotification, maxBodyBytes };
}

// UNKNOWNS U46: any verifier, any signature; then the signed time within the tolerance. Synchronous verifiers (the
// reference ones) are called without an await per pair; an asynchronous one is awaited from where it answered.
function anyVerifies(verifiers: readonly Verifier[], decoded: Omit<DecodedNotification, 'signedAt'>, from = 0): boolean | Promise<boolean> {
  const { signatures, message } = decoded;
  const pairs = verifiers.length * signatures.length;
  for (let i = from; i < pairs; i++) {
    const answer = verifiers[Math.floor(i / signatures.length)]!.verify(message, signatures[i % signatures.length]!);
    if (answer === true) return true;
    if (answer !== false && typeof (answer as Promise<boolean> | null)?.then === 'function') {
      return (answer as Promise<boolean>).then((ok) => ok || anyVerifies(verifiers, decoded, i + 1));
    }
  }
  return false;
}

function mismatch(settings: VerifySettings, signatures: number, bytes: number): NotificationRefusedError {
  return new NotificationRefusedError(
    'No signature verifies: the body or its signed time was changed on the way, or it was signed with a secret none of the verifiers holds. Check the receiver\'s secret; never process it.',
    { reason: 'signature-mismatch', verifiers: settings.verifiers.length, signatures, bytes },
  );
}

// The event once its signature verified: refused when the signed time is further from now than the tolerance.
function withinTolerance(event: NotificationEvent, signedAtMs: number, settings: VerifySettings, bytes: number): NotificationEvent {
  const nowMs = settings.clock === DEFAULT_CLOCK ? Date.now() : settings.clock().getTime();
  if (Math.abs(nowMs - signedAtMs) <= settings.toleranceMs) return event;
  // A decoder's or clock's invalid Date (NaN) is refused here too, never taken as within the tolerance.
  const signedAt = Number.isFinite(signedAtMs) ? new Date(signedAtMs).toISOString() : 'an invalid time';
  const receivedAt = Number.isFinite(nowMs) ? new Date(nowMs).toISOString() : 'an invalid time';
  throw new NotificationRefusedError(
    `The signature verifies but was made at ${signedAt}, more than ${settings.toleranceMs / 1000} s from now (${receivedAt}): a replay, or a clock off; check both clocks.`,
    { reason: 'outside-tolerance', signedAt, receivedAt, toleranceSeconds: settings.toleranceMs / 1000, bytes },
  );
}

/**
 * The synchronous core of `verifyNotification`: the event at once when every verifier answers synchronously (the
 * reference ones do), a promise only when one answers with a promise. Throws `NotificationRefusedError` the same way.
 */
export function verifyNotificationNow(input: DecodeInput, settings: VerifySettings): NotificationEvent | Promise<NotificationEvent> {
  const bytes = input.body.byteLength;
  if (bytes > settings.maxBodyBytes) throw new NotificationRefusedError(`The body has ${bytes} bytes, more than maxBodyBytes (${settings.maxBodyBytes}).`, { reason: 'too-large', bytes });
  // The default decoder's parts without a Date: the signed time stays a number of milliseconds.
  let decoded: Omit<DecodedNotification, 'signedAt'>;
  let signedAtMs: number;
  if (settings.decode === decodeGwNotification) {
    const parts = readGwNotification(input);
    decoded = parts;
    signedAtMs = Number(parts.t) * 1000;
  } else {
    const custom = settings.decode(input);
    decoded = custom;
    signedAtMs = custom.signedAt.getTime();
  }
  const verified = anyVerifies(settings.verifiers, decoded);
  if (verified === true) return withinTolerance(decoded.event, signedAtMs, settings, bytes);
  if (verified === false) throw mismatch(settings, decoded.signatures.length, bytes);
  return verified.then((ok) => {
    if (!ok) throw mismatch(settings, decoded.signatures.length, bytes);
    return withinTolerance(decoded.event, signedAtMs, settings, bytes);
  });
}

/**
 * Verifies a raw notification and returns its typed event: decoded, signature checked against every verifier, signed
 * time within the tolerance. Throws `NotificationRefusedError` otherwise; nothing of the body is trusted before.
 */
export async function verifyNotification(input: DecodeInput, settings: VerifySettings): Promise<NotificationEvent> {
  return verifyNotificationNow(input, settings);
}

/**
 * Verifies and parses one notification (like Stripe's `constructEvent`), without de-duplication: for code that
 * handles the HTTP side itself.
 */
export async function constructEvent(input: DecodeInput, options: VerifyOptions): Promise<NotificationEvent> {
  return verifyNotification(input, verifySettings(options));
}
