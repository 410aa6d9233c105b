import { createHmacSha256Signer, type Signer } from '@gw/signer-interface';
import { createNotificationEvent, type NotificationEventInput } from './envelope/create-event.ts';
import type { NotificationEvent } from './envelope/event.ts';
import type { NotificationEncoder } from './format/format.ts';
import { encodeGwNotification } from './format/gw-envelope.ts';

/** Options of `signedNotification`: the event (or what to build it from) and how to sign it. */
export interface SignedNotificationOptions {
  /** A whole event, or its kind, operation and data (id and time generated). */
  readonly event: NotificationEvent | NotificationEventInput;
  /** The signer; or `secret` for the reference HMAC-SHA256 signer (what the sandbox uses by default). */
  readonly signer?: Signer;
  readonly secret?: string;
  /** The signed time. Default now. */
  readonly signedAt?: Date;
  /** The encoder. Default the gw envelope. */
  readonly encode?: NotificationEncoder;
}

/** A correctly signed notification as a sender delivers it, ready to feed a receiver or POST to your handler. */
export interface SignedNotification {
  readonly event: NotificationEvent;
  /** The exact body text. */
  readonly body: string;
  /** The body bytes (UTF-8), as `handle({ body, headers })` takes them. */
  readonly bytes: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
}

/** Builds a correctly signed notification, so a team can unit-test its handler without a sandbox. */
export async function signedNotification(options: SignedNotificationOptions): Promise<SignedNotification> {
  const signer = options.signer ?? (options.secret !== undefined ? createHmacSha256Signer({ secret: options.secret }) : undefined);
  if (!signer) throw new TypeError('signedNotification needs a signer or a secret');
  const event = 'type' in options.event ? options.event : createNotificationEvent(options.event);
  const encoded = await (options.encode ?? encodeGwNotification)(event, { signer, signedAt: options.signedAt ?? new Date() });
  return { event, body: encoded.body, bytes: new TextEncoder().encode(encoded.body), headers: encoded.headers };
}
