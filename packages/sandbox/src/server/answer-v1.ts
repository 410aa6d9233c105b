import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationSpec } from '@gw/types';
import { SandboxHttpError } from '../refusals/errors.ts';
import { errorResponse, type EncodedResponse } from '../wire/body.ts';
import { traceExchange } from './exchange-span.ts';
import { recordInternalError } from './internal-error.ts';
import { readBody } from '../wire/read-body.ts';
import type { SandboxParts } from './sandbox-parts.ts';
import { latency, resetAfter, resetBefore, serviceUnavailable } from './steps/fault.ts';
import { throttledByFault } from './steps/throttle.ts';
import { V1Call } from './v1-call.ts';
import { admitV1, runV1Steps } from './v1-pipeline.ts';
import { sendAnswer } from './write-response.ts';

/** The answer of an error a step threw: its HTTP error, or HTTP 500 (kept in state.internalErrors) for anything else. */
function errorAnswer(parts: SandboxParts, res: ServerResponse, error: unknown): EncodedResponse {
  if (error instanceof SandboxHttpError) {
    if (error.closeAfter) res.setHeader('connection', 'close');
    return errorResponse(error.status, error.message, error.errors);
  }
  recordInternalError(parts.state, error);
  return errorResponse(500, 'sandbox internal error');
}

/** Answers a POST to a /v1 path: reads its body, applies the route's faults around the steps, then sends the answer. */
export async function answerV1(
  parts: SandboxParts,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  variants: readonly OperationSpec[],
): Promise<void> {
  const fault = parts.faults.decide(path);
  // With an OpenTelemetry SDK registered, a SERVER span (ended when the connection is done); else null, one check.
  const traced = traceExchange(req, res, path, variants, fault);
  // The body is read first, then the latency (the gateway's processing time) passes: a request the sandbox has
  // received is processed even if its client has gone meanwhile (killed, or gave up), as a real gateway's would be.
  const body = await readBody(req, parts.bodyLimits).catch((error: unknown) => error as Error);
  const call = new V1Call(req, path, parts.clock(), variants, fault.duplicateNotification);
  if (traced !== null) traced.call = call;
  // A throttle refuses at the gateway's edge, at once: the http429 fault, or the quota (a null check when it is off).
  const throttled =
    fault.kind === 'http-429'
      ? throttledByFault(parts, call, body, res, fault.retryAfterSeconds)
      : parts.throttle.quota === null
        ? null
        : admitV1(parts, call, body, res);
  if (throttled !== null) return sendAnswer(parts.keeper, res, throttled, null);
  if (fault.latencyMs > 0) await latency(fault.latencyMs);
  if (fault.kind === 'reset-before') return resetBefore(parts, req, call);
  let response: EncodedResponse;
  try {
    if (body instanceof Error) throw body;
    response = fault.kind === 'http-5xx' ? serviceUnavailable(parts, call) : await runV1Steps(parts, call, body);
  } catch (error) {
    response = errorAnswer(parts, res, error);
  }
  if (fault.kind === 'reset-after') return resetAfter(req, call);
  sendAnswer(parts.keeper, res, response, call.changedAfter, call.quota === null ? null : call);
}
