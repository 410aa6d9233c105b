import { GW_ERROR_CODES } from '@gw/types';

/** The parts of a thrown value that can prove a request never left the process. */
interface Evidence {
  readonly code?: unknown;
  readonly details?: { readonly outcome?: unknown; readonly sent?: unknown };
}

/** Codes the client raises only while preparing a request, before a byte of it is sent (NotSentError: a signer down). */
const BEFORE_SENDING: ReadonlySet<string> = new Set([GW_ERROR_CODES.validation, GW_ERROR_CODES.config, GW_ERROR_CODES.notSent]);
/** Codes of wire failures, which say themselves whether the request had started to go out (`details.sent`). */
const WIRE: ReadonlySet<string> = new Set([GW_ERROR_CODES.http, GW_ERROR_CODES.timeout]);

/**
 * True only when `error` proves the request never left the process: a ValidationError, ConfigError or NotSentError
 * of the client (raised while preparing it), or a connection failure or timeout whose `details.sent` is false. Anything else,
 * whatever threw it (a Verifier that is down, an answer too deep to walk, a bug), may have followed a request the
 * gateway applied: its outcome is unknown and is settled by query, never by sending again blindly.
 */
export function provenNotSent(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, details } = error as Evidence;
  if (typeof code !== 'string') return false;
  if (details?.outcome === 'unknown' || details?.sent === true) return false;
  if (BEFORE_SENDING.has(code)) return true;
  return WIRE.has(code) && details?.sent === false;
}
