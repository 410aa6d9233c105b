// A shared sandbox's control API and console are locked with a token: `Authorization: Bearer <token>` for the API, a
// login form that sets an HttpOnly, SameSite=Strict cookie for the console. Compared in constant time (node:crypto).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The console's session cookie. */
export const CONTROL_COOKIE = 'gw_sandbox_control';
/** Shortest token taken: a shared sandbox's control must not be guessable. */
export const MIN_CONTROL_TOKEN_LENGTH = 16;

/** True when `given` is `expected`, in time that does not depend on where they differ. */
function sameText(given: string, expected: string): boolean {
  // Digests of equal length, so timingSafeEqual never throws and the length of the token is not told either.
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

/** The cookie value a login sets: derived from the token (the token itself is never stored in the browser). */
export function consoleSession(token: string): string {
  return createHmac('sha256', token).update('gw sandbox console session').digest('base64url');
}

/** The request's bearer token, if it sent one. */
function bearerOf(req: IncomingMessage): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match ? match[1]! : null;
}

/** The console session cookie's value, if the request carries one. */
function sessionOf(req: IncomingMessage): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === CONTROL_COOKIE) return value.join('=');
  }
  return null;
}

/** True when the request may use the control API (its bearer token is the sandbox's). */
export function apiAuthorised(req: IncomingMessage, token: string): boolean {
  const given = bearerOf(req);
  return given !== null && sameText(given, token);
}

/** True when the request may see the console (its session cookie, or a bearer token). */
export function consoleAuthorised(req: IncomingMessage, token: string): boolean {
  const session = sessionOf(req);
  return (session !== null && sameText(session, consoleSession(token))) || apiAuthorised(req, token);
}

/** True when `given` (a login form's field) is the token. */
export function tokenMatches(given: string, token: string): boolean {
  return sameText(given, token);
}
