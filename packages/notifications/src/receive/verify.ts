import type { Verifier } from '@gw/signer-interface';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { NotificationEvent } from '../envelope/event.ts';
import { NotificationRefusedError } from '../errors.ts';
import type { DecodeInput, DecodedNotification } from '../format/format.ts';
import { isThenable } from './thenable.ts';
import { verifySettings, type VerifyOptions, type VerifySettings } from './verify-settings.ts';

// UNKNOWNS U46: any verifier, any signature; then the signed time within the tolerance. Synchronous verifiers (the
// reference ones) are called without an await per pair; an asynchronous one is awaited from where it answered.
function anyVerifies(verifiers: readonly Verifier[], decoded: DecodedNotification, from = 0): boolean | Promise<boolean> {
  const { signatures, message } = decoded;
  const pairs = verifiers.length * signatures.length;
  for (let i = from; i < pairs; i++) {
    const answer = verifiers[Math.floor(i / signatures.length)]!.verify(message, signatures[i % signatures.length]!);
    if (answer === true) return true;
    if (isThenable(answer)) return Promise.resolve(answer).then((ok) => ok || anyVerifies(verifiers, decoded, i + 1));
  }
  return false;
}

function mismatch(settings: VerifySettings, signatures: number, bytes: number): NotificationRefusedError {
  return new NotificationRefusedError(
    "No signature verifies: the body or its signed time was changed on the way, or it was signed with a secret none of the verifiers holds. Check the receiver's secret; never process it.",
    { reason: 'signature-mismatch', verifiers: settings.verifiers.length, signatures, bytes },
  );
}

// The event once its signature verified: refused when the signed time is further from now than the tolerance.
function withinTolerance(decoded: DecodedNotification, settings: VerifySettings, bytes: number): NotificationEvent {
  const signedAtMs = decoded.signedAt.getTime();
  const nowMs = settings.clock().getTime();
  if (Math.abs(nowMs - signedAtMs) <= settings.toleranceMs) return decoded.event;
  // A decoder's or clock's invalid Date (NaN) is refused here too, never taken as within the tolerance.
  const signedAt = Number.isFinite(signedAtMs) ? new Date(signedAtMs).toISOString() : 'an invalid time';
  const receivedAt = Number.isFinite(nowMs) ? new Date(nowMs).toISOString() : 'an invalid time';
  throw new NotificationRefusedError(
    `The signature verifies but was made at ${signedAt}, more than ${settings.toleranceMs / 1000} s from now (${receivedAt}): a replay, or a clock off; check both clocks.`,
    { reason: 'outside-tolerance', signedAt, receivedAt, toleranceSeconds: settings.toleranceMs / 1000, bytes },
  );
}

/**
 * The synchronous core of `constructEvent` and the receiver: the event at once when every verifier answers synchronously (the
 * reference ones do), a promise only when one answers with a promise. Throws `NotificationRefusedError` the same way.
 */
export function verifyNotificationNow(input: DecodeInput, settings: VerifySettings): NotificationEvent | Promise<NotificationEvent> {
  const bytes = input.body.byteLength;
  if (bytes > settings.maxBodyBytes)
    throw new NotificationRefusedError(`The body has ${bytes} bytes, more than maxBodyBytes (${settings.maxBodyBytes}).`, { reason: 'too-large', bytes });
  const decoded = settings.decode(input);
  const verified = anyVerifies(settings.verifiers, decoded);
  if (verified === true) return withinTolerance(decoded, settings, bytes);
  if (verified === false) throw mismatch(settings, decoded.signatures.length, bytes);
  return verified.then((ok) => {
    if (!ok) throw mismatch(settings, decoded.signatures.length, bytes);
    return withinTolerance(decoded, settings, bytes);
  });
}

/**
 * Verifies and parses one notification, without de-duplication, for code that handles the HTTP side itself (as
 * stripe-node's `constructEvent`): the typed event, decoded, its signature checked against every verifier, its signed
 * time within the tolerance; `NotificationRefusedError` thrown otherwise, nothing of the body trusted before. For
 * verifiers that answer synchronously (the reference signers do); one answering with a promise (an HSM, a signing
 * service) is a `GW_CONFIG` error: use `constructEventAsync`.
 */
export function constructEvent(input: DecodeInput, options: VerifyOptions): NotificationEvent {
  const verified = verifyNotificationNow(input, verifySettings(options));
  if (!isThenable(verified)) return verified;
  verified.catch(() => undefined); // its outcome is not used: never an unhandled rejection
  throw new GwError(
    GW_ERROR_CODES.config,
    'constructEvent needs verifiers that answer synchronously, and one answered with a promise (an HSM or a signing service): use constructEventAsync.',
    {
      problems: ['a verifier answered with a promise'],
    },
  );
}

/** `constructEvent` for any verifier, synchronous or not (as stripe-node's `constructEventAsync`): a refusal rejects the promise. */
export function constructEventAsync(input: DecodeInput, options: VerifyOptions): Promise<NotificationEvent> {
  // A plain function handing back a settled promise (a refusal as a rejection, never a throw): an async function's
  // own frame costs about as much again per call. Promise.resolve keeps a verifier chain's promise as it is.
  try {
    return Promise.resolve(verifyNotificationNow(input, verifySettings(options)));
  } catch (error) {
    return Promise.reject(error);
  }
}
