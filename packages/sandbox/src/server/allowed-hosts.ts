// DNS rebinding: a page whose name is re-pointed at 127.0.0.1 is "same origin" with the sandbox, so every request
// names one of the sandbox's own hosts or is refused, as dev servers do (Vite `server.allowedHosts`, webpack-dev-server
// `allowedHosts`).
import { BlockList, isIP } from 'node:net';
import { CONTROL_ERROR_CODES, ControlError } from '../control/control-error.ts';
import { errorResponse, type EncodedResponse } from '../wire/body.ts';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** A host name as compared: lower case, without a trailing dot; an IPv6 address without its brackets. */
function normalName(name: string): string {
  const lower = name.trim().toLowerCase();
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return bare.endsWith('.') ? bare.slice(0, -1) : bare;
}

/** The host name of a Host header (`name`, `name:port`, `[v6]:port`), or null when it is not one. */
export function hostNameOf(header: string): string | null {
  const value = header.trim();
  const v6 = /^\[([0-9a-fA-F:.]+)\](?::\d*)?$/.exec(value);
  if (v6) return normalName(v6[1]!);
  const named = /^([^:[\]\s/@]+)(?::\d*)?$/.exec(value);
  return named ? normalName(named[1]!) : null;
}

function isLoopback(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const family = isIP(name);
  return family !== 0 && LOOPBACK.check(name, family === 4 ? 'ipv4' : 'ipv6');
}

/** Where the sandbox listens and what the operator allowed besides (option `allowedHosts`). */
export interface HostAllowList {
  /** The `host` option as given (`127.0.0.1`, `::`, `mybox.lan`) and the address the server is bound to. */
  readonly listening: readonly string[];
  /** Names from `allowedHosts`; `.example.test` allows example.test and every name under it. */
  readonly allowedHosts: readonly string[];
}

/** A test of a request's Host header: loopback names and addresses, the listening address, or an allowed name. */
export function hostAllowed(allowList: HostAllowList): (header: string | undefined) => boolean {
  const exact = new Set(allowList.listening.map(normalName));
  const suffixes: string[] = [];
  for (const entry of allowList.allowedHosts) {
    const lower = entry.trim().toLowerCase();
    if (lower.startsWith('.') && lower.length > 1) {
      exact.add(normalName(lower.slice(1)));
      suffixes.push(normalName(lower));
    } else if (lower !== '') exact.add(normalName(lower));
  }
  return (header) => {
    if (header === undefined) return false;
    const name = hostNameOf(header);
    if (name === null || name === '') return false;
    // The listening address first: what almost every request names.
    return exact.has(name) || isLoopback(name) || suffixes.some((suffix) => name.endsWith(suffix));
  };
}

/**
 * The 403 of a request whose Host is not the sandbox's, in the shape the route answers errors in: the control API's
 * `{ error: { code, message, details } }` under /sandbox/api, the structured JSON error of /v1 everywhere else.
 */
export function hostRefusal(path: string, header: string | undefined): EncodedResponse {
  const host = header ?? null;
  const what = host === null ? 'A request without a Host header' : `Host ${JSON.stringify(host)}`;
  const message = `${what} is not this sandbox's: it answers 127.0.0.1, localhost, other loopback names and its listening address; add the name with the allowedHosts option of startSandbox (gw sandbox --allowed-host NAME) to reach it by that name`;
  if (path.startsWith('/sandbox/api')) {
    const error = new ControlError(403, CONTROL_ERROR_CODES.hostNotAllowed, message, { host, option: 'allowedHosts', flag: '--allowed-host' });
    return { status: 403, contentType: 'application/json; charset=utf-8', body: JSON.stringify(error.toJSON()) };
  }
  return errorResponse(403, message, [
    { path: 'headers/host', message: `${host === null ? 'missing' : 'not an allowed host'}: set allowedHosts (gw sandbox --allowed-host NAME)` },
  ]);
}
