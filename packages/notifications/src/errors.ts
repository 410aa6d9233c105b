import { GW_ERROR_CODES, GwError } from '@gw/types';

/**
 * Why a notification was refused. Stable values:
 * - `signature-mismatch`: no signature verifies with any configured verifier: the body or its time was changed
 *   (tampered) or it was signed with another secret. The two cannot be told apart, by design of a MAC.
 * - `no-signature`: the signature header is missing or not `t=<unix seconds>,v1=<signature>`.
 * - `outside-tolerance`: the signature verifies but its time is further from now than the tolerance (a replay or a
 *   badly set clock).
 * - `truncated`: the body ends before its JSON does (cut by a proxy or a framework), or is shorter than Content-Length.
 * - `malformed`: not UTF-8, not JSON, or not a version-1 envelope (every problem is listed in `details.problems`).
 * - `too-large`: the body is larger than `maxBodyBytes`.
 */
export type NotificationRefusalReason = 'signature-mismatch' | 'no-signature' | 'outside-tolerance' | 'truncated' | 'malformed' | 'too-large';

/** What a refusal carries. Never the body: it may hold personal data. */
export interface NotificationRefusalDetails {
  readonly reason: NotificationRefusalReason;
  /** Every problem found, for `malformed`. */
  readonly problems?: readonly string[];
  /** The signature time and the receiver's time (ISO 8601), for `outside-tolerance`. */
  readonly signedAt?: string;
  readonly receivedAt?: string;
  readonly toleranceSeconds?: number;
  /** How many verifiers and signatures were tried, for `signature-mismatch`. */
  readonly verifiers?: number;
  readonly signatures?: number;
  /** Body size in bytes. */
  readonly bytes?: number;
}

const CODE_BY_REASON: Record<NotificationRefusalReason, typeof GW_ERROR_CODES.signature | typeof GW_ERROR_CODES.decode> = {
  'signature-mismatch': GW_ERROR_CODES.signature,
  'no-signature': GW_ERROR_CODES.signature,
  'outside-tolerance': GW_ERROR_CODES.signature,
  truncated: GW_ERROR_CODES.decode,
  malformed: GW_ERROR_CODES.decode,
  'too-large': GW_ERROR_CODES.decode,
};

/**
 * A notification the receiver refused before any handler ran. `code` is `GW_SIGNATURE` (could not be trusted) or
 * `GW_DECODE` (could not be read); `details.reason` says which case exactly.
 */
export class NotificationRefusedError extends GwError<NotificationRefusalDetails> {
  override readonly name = 'NotificationRefusedError';

  constructor(message: string, details: NotificationRefusalDetails, options?: { cause?: unknown }) {
    super(CODE_BY_REASON[details.reason], message, details, options);
  }

  /** The refusal reason (same as `details.reason`). */
  get reason(): NotificationRefusalReason {
    return this.details.reason;
  }
}

/** What a NotificationNotRecordedError reports: the event and why the store could not record it. Never the body. */
export interface NotificationNotRecordedDetails {
  /** The event id whose handler finished. */
  readonly eventId: string;
  /** The store's error code (`ENOSPC`, `EIO`, ...) or, without one, its name. */
  readonly reason: string;
  /** `after-handler`: this delivery ran your handler; `later-delivery`: a later delivery of it tried to record it again. */
  readonly when: 'after-handler' | 'later-delivery';
}

/**
 * Your handler finished but the de-duplication store could not record the event id (a full disk, a database down).
 * The event counts as handled: the sender was answered 2xx and this process keeps the id in memory, so a retry is
 * acknowledged without running the handler again (and records it then, once the store takes it). Reported through
 * `onError`, never thrown to the sender. Only a restart before it is recorded can run the handler again.
 */
export class NotificationNotRecordedError extends GwError<NotificationNotRecordedDetails> {
  override readonly name = 'NotificationNotRecordedError';

  constructor(eventId: string, when: NotificationNotRecordedDetails['when'], cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    const reason = typeof code === 'string' && code ? code : cause instanceof Error ? cause.name : 'unknown';
    const fix = reason === 'ENOSPC' ? 'free space on its disk' : 'fix the store';
    super(
      GW_ERROR_CODES.notRecorded,
      `event ${eventId}: the handler finished but the de-duplication store could not record it (${reason}). It was acknowledged, ` +
        `and this process will not run the handler for it again; ${fix}: it is recorded at its next delivery that the store takes, and a restart before then may run the handler once more`,
      { eventId, reason, when },
      { cause },
    );
  }
}
