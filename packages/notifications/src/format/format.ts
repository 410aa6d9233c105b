import type { Signer, SignableMessage } from '@gw/signer-interface';
import type { NotificationEvent } from '../envelope/event.ts';

/** Request headers as node:http gives them, as a plain record, or as WHATWG `Headers`. */
export type HeaderSource = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** What an encoder is given besides the event. */
export interface EncodeContext {
  /** The sender's signer (the sandbox's `signer` option). */
  readonly signer: Signer;
  /** The time of this delivery attempt: each attempt is signed afresh, so a retry is never stale. */
  readonly signedAt: Date;
}

/** One delivery: the exact body bytes (UTF-8 text) and the headers that go with them. */
export interface EncodedNotification {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Turns an event into what is POSTed to `notify_url` (the sandbox's `notify.encode` option). */
export type NotificationEncoder = (event: NotificationEvent, context: EncodeContext) => EncodedNotification | Promise<EncodedNotification>;

/** What a decoder reads: the raw body bytes exactly as received, and the request headers. */
export interface DecodeInput {
  readonly body: Uint8Array;
  readonly headers: HeaderSource;
}

/** What a decoder gives the receiver to check: nothing in it is trusted until a signature over `message` verifies. */
export interface DecodedNotification {
  readonly event: NotificationEvent;
  /** What the signatures cover, for the receiver's `Verifier`s. */
  readonly message: SignableMessage;
  /** Every signature that came with the notification (a sender rotating its key may send several). */
  readonly signatures: readonly string[];
  /** The signed time, checked against the tolerance. */
  readonly signedAt: Date;
}

/**
 * Reads a raw notification (the receiver's `decode` option). Throws `NotificationRefusedError` (`malformed`,
 * `truncated`, `no-signature`) for anything it cannot read; never verifies: the receiver does that.
 */
export type NotificationDecoder = (input: DecodeInput) => DecodedNotification;

/**
 * One header's value, case-insensitively, from any `HeaderSource`; several values are joined with `, `. In a plain
 * record, a key spelled exactly as the lower-case name (as node:http gives every header) is taken first. For a custom
 * `decode` (the receiver's option), which gets the headers in whatever form the framework gave them.
 */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  const lower = name.toLowerCase();
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(lower) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  // Anything but a string or an array under the exact name (an inherited member such as `constructor`) is no header.
  const direct: unknown = record[lower];
  if (typeof direct === 'string') return direct;
  if (Array.isArray(direct)) return direct.join(', ');
  // A key of another length cannot match: only keys of the name's length are lower-cased to compare.
  for (const key of Object.keys(record)) {
    if (key.length !== lower.length || key.toLowerCase() !== lower) continue;
    const value = record[key];
    return typeof value === 'string' ? value : value?.join(', ');
  }
  return undefined;
}
