import type { ServerResponse } from 'node:http';
import type { AccountQuota, ThrottleVerdict } from '../../throttle/account-quota.ts';
import { errorResponse, type EncodedResponse } from '../../wire/body.ts';
import type { SandboxParts } from '../sandbox-parts.ts';
import { logRequest, type V1Call } from '../v1-call.ts';
import { readRecord } from './decode.ts';

// At the gateway's edge, before its processing time (the route's latency): a request over its merchant account's
// quota, or one meeting the `http429` fault, is answered HTTP 429 with Retry-After at once and nothing of it is applied.

/** The known merchant account a request names; null when its body cannot be read (the decode step refuses it) or names none the sandbox knows. */
function accountOf(parts: SandboxParts, call: V1Call, body: Buffer | Error): AccountQuota | null {
  if (body instanceof Error) return null;
  try {
    readRecord(call, body);
  } catch {
    return null;
  }
  return parts.throttle.account(call.merchantId, call.accountId);
}

/** The limit a verdict names, as the 429 body's one error. */
function limitOf(parts: SandboxParts, verdict: ThrottleVerdict): { path: string; message: string } {
  const quota = parts.throttle.quota;
  if (verdict.reason === 'rate')
    return { path: 'throttle.ratePerSecond', message: `at most ${quota?.ratePerSecond} requests of a merchant account in any 1000 ms` };
  if (verdict.reason === 'inFlight')
    return { path: 'throttle.maxInFlight', message: `at most ${quota?.maxInFlight} requests of a merchant account in flight at once` };
  return { path: 'faults.http429', message: 'the http429 fault of this path' };
}

/** The 429 answer of a throttled request: Retry-After in whole seconds and a small JSON body naming the limit. */
function tooManyRequests(parts: SandboxParts, call: V1Call, res: ServerResponse, verdict: ThrottleVerdict): EncodedResponse {
  logRequest(parts, call, call.decoded ? call.op.name : null, false, 'refused', true);
  res.setHeader('retry-after', String(verdict.retryAfterSeconds));
  const who = call.decoded ? ` of merchant account ${call.merchantId} / ${call.accountId}` : '';
  return errorResponse(
    429,
    `sandbox throttle: too many requests${who}; nothing was processed, send it again after Retry-After (${verdict.retryAfterSeconds} s)`,
    [limitOf(parts, verdict)],
  );
}

/**
 * Throttle (quota on): the request's merchant account has room in its quota, and the request now holds a place in it
 * until answered (`call.quota`); or its 429 answer. Requests naming no account the sandbox knows are not counted.
 */
export function throttle(parts: SandboxParts, call: V1Call, body: Buffer | Error, res: ServerResponse): EncodedResponse | null {
  const account = accountOf(parts, call, body);
  if (account === null) return null;
  const verdict = parts.throttle.admit(account);
  if (verdict === null) {
    call.quota = account;
    return null;
  }
  return tooManyRequests(parts, call, res, verdict);
}

/** Fault `http-429`: HTTP 429 with the rule's Retry-After, nothing processed; counted for its account while the throttle is on. */
export function throttledByFault(parts: SandboxParts, call: V1Call, body: Buffer | Error, res: ServerResponse, retryAfterSeconds: number): EncodedResponse {
  const account = parts.throttle.quota === null ? null : accountOf(parts, call, body);
  const verdict = account === null ? { reason: 'fault' as const, retryAfterSeconds } : account.throttledByFault(retryAfterSeconds);
  return tooManyRequests(parts, call, res, verdict);
}
