import { envelopeProblems } from '../envelope/check-envelope.ts';
import type { NotificationEvent } from '../envelope/event.ts';
import { NotificationRefusedError } from '../errors.ts';
import { headerValue, type DecodeInput, type DecodedNotification, type EncodeContext, type EncodedNotification } from './format.ts';
import { endsInsideJson } from './json-end.ts';
import { formatSignatureHeader, parseSignatureHeader, SIGNATURE_HEADER } from './signature-header.ts';
import { notificationMessage } from './signed-message.ts';

/**
 * The default encoder: the envelope as JSON (the body), signed with the sender's `Signer` over `t` and exactly those
 * bytes (see `notificationMessage`), the signature in `gw-signature: t=<unix seconds>,v1=<signature>`.
 */
export async function encodeGwNotification(event: NotificationEvent, context: EncodeContext): Promise<EncodedNotification> {
  const body = JSON.stringify(event);
  const t = String(Math.floor(context.signedAt.getTime() / 1000));
  const signature = await context.signer.sign(notificationMessage(event.operation, t, body));
  return { body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: formatSignatureHeader(t, [signature]) } };
}

// Checks and decodes UTF-8 in one pass. ignoreBOM keeps a leading BOM in the text, as Buffer#toString does: what is
// signed is the text exactly as received.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const DIGITS = /^\d+$/;

function bodyText(body: Uint8Array, declaredLength: string | undefined): string {
  if (declaredLength !== undefined && DIGITS.test(declaredLength) && Number(declaredLength) > body.byteLength) {
    throw new NotificationRefusedError(`The body has ${body.byteLength} of the ${declaredLength} bytes its Content-Length announced.`, {
      reason: 'truncated',
      bytes: body.byteLength,
    });
  }
  try {
    return UTF8.decode(body);
  } catch (cause) {
    throw new NotificationRefusedError(
      'The body is not UTF-8 text.',
      { reason: 'malformed', problems: ['the body is not UTF-8'], bytes: body.byteLength },
      { cause },
    );
  }
}

function parseJson(text: string, bytes: number): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    if (endsInsideJson(text)) {
      throw new NotificationRefusedError(
        `The body ends before its JSON does (${bytes} bytes): it was cut on the way; the sender should retry.`,
        { reason: 'truncated', bytes },
        { cause },
      );
    }
    throw new NotificationRefusedError('The body is not JSON.', { reason: 'malformed', problems: ['the body is not JSON'], bytes }, { cause });
  }
}

/** The default decoder: reads the JSON envelope and the `gw-signature` header; verifies nothing (the receiver does). */
export function decodeGwNotification(input: DecodeInput): DecodedNotification {
  const header = parseSignatureHeader(headerValue(input.headers, SIGNATURE_HEADER));
  const text = bodyText(input.body, headerValue(input.headers, 'content-length'));
  const value = parseJson(text, input.body.byteLength);
  const problems = envelopeProblems(value);
  if (problems.length > 0) {
    throw new NotificationRefusedError(`Not a gw notification envelope: ${problems.join('; ')}.`, {
      reason: 'malformed',
      problems,
      bytes: input.body.byteLength,
    });
  }
  const event = value as NotificationEvent;
  return { event, message: notificationMessage(event.operation, header.t, text), signatures: header.signatures, signedAt: new Date(Number(header.t) * 1000) };
}
