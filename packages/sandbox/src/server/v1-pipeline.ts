// The path of a /v1 request through the sandbox, as a list of named steps (as fastify's handleRequest is):
// throttle (at the edge, before the route's latency; only with a quota set) → decode → limit → validate → allow-list
// → verify → complete → handler → sign, each in server/steps/. The route's faults act around them (answer-v1.ts). A
// step refuses by throwing: a SandboxHttpError is answered as an HTTP error, a SandboxRefusal as the operation's
// signed refusal record; the throttle answers 429 itself.
import type { ServerResponse } from 'node:http';
import type { OperationName } from '@gw/types';
import type { WireRecord } from '../wire/wire-record.ts';
import { refusal, SandboxHttpError, SandboxRefusal } from '../refusals/errors.ts';
import { encodeResponseBody, type EncodedResponse } from '../wire/body.ts';
import { refusalRecord } from './refusals.ts';
import type { SandboxParts } from './sandbox-parts.ts';
import { checkAllowList } from './steps/allow-list.ts';
import { refuseIncompletePayment } from './steps/complete-payment.ts';
import { decode } from './steps/decode.ts';
import { runHandler } from './steps/handler.ts';
import { checkBatchLimit } from './steps/limit.ts';
import { signAnswer } from './steps/sign.ts';
import { throttle } from './steps/throttle.ts';
import { validate } from './steps/validate.ts';
import { checkMerchant, signatureVerifies } from './steps/verify.ts';
import { logRequest, type V1Call } from './v1-call.ts';

/**
 * The steps at the gateway's edge, before its processing time, with a quota set: throttle. The 429 answer of a
 * request over its merchant account's quota, or null when it goes on (holding a place in the quota until answered).
 */
export function admitV1(parts: SandboxParts, call: V1Call, body: Buffer | Error, res: ServerResponse): EncodedResponse | null {
  return throttle(parts, call, body, res);
}

/** A page answer with the drift rules' added and dropped hidden fields. */
function driftedPage(parts: SandboxParts, operation: OperationName, result: WireRecord): WireRecord {
  const page = result as unknown as { fields: [string, string][]; action: string };
  return { ...page, fields: parts.drift.pageFields(operation, page.fields) } as unknown as WireRecord;
}

/** Runs the steps on a request whose body was read: its encoded answer; `call.changedAfter` says whether it changed the state. */
export async function runV1Steps(parts: SandboxParts, call: V1Call, body: Buffer): Promise<EncodedResponse> {
  decode(parts, call, body);
  const operation = call.op.name as OperationName;
  try {
    checkBatchLimit(call);
    validate(parts, call);
    checkAllowList(parts, call);
    checkMerchant(parts, call);
    if (!(await signatureVerifies(parts, call))) throw refusal('badSignature');
    refuseIncompletePayment(call.op, call.record);
  } catch (error) {
    if (!(error instanceof SandboxRefusal)) throw error;
    logRequest(parts, call, operation, false, 'refused');
    // A page cannot carry a refusal record: an operation answering HTML refuses with HTTP 403.
    if (call.op.responseEncoding === 'html') throw new SandboxHttpError(403, `${error.code}:${error.message}`);
    return encodeResponseBody(call.op, await signAnswer(parts.signer, operation, refusalRecord(call.op, call.record, error, call)));
  }
  // Handlers are synchronous: the changes counted from here are this request's (with an asynchronous signer, also
  // those of a request that ran while this answer was signed: the answer then waits for them to be kept as well).
  const before = parts.keeper.changeCount;
  const result = runHandler(parts, call);
  // Every answer with the answer drift the tests set (none by default): a page's hidden fields, or a record then signed.
  const answer =
    call.op.responseEncoding === 'html'
      ? driftedPage(parts, operation, result)
      : parts.drift.signature(operation, await signAnswer(parts.signer, operation, parts.drift.fields(operation, result)));
  call.changedAfter = parts.keeper.changeCount === before ? null : before;
  return encodeResponseBody(call.op, answer);
}
