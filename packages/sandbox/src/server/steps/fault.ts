import type { IncomingMessage } from 'node:http';
import { errorResponse, type EncodedResponse } from '../../wire/body.ts';
import type { SandboxParts } from '../sandbox-parts.ts';
import { logRequest, type V1Call } from '../v1-call.ts';

// The faults of a route, as faults/fault-plan.ts decides them (FaultPlan.decide): `http-429` at once
// (steps/throttle.ts), then latency and `reset-before` or `http-5xx` before any other step, `reset-after` once the
// request was processed, `duplicate-notification` in the handler step. Only the acting on the socket and the request
// log is here, a step beside the others: in faults/ it would make faults/ import the server back.

/** Fault `reset-before`: the connection is dropped unanswered and nothing is processed. */
export function resetBefore(parts: SandboxParts, req: IncomingMessage, call: V1Call): void {
  logRequest(parts, call, null, false, 'reset-before');
  req.socket.destroy();
  call.answered();
}

/** Fault `http-5xx`: HTTP 503 and nothing is processed. */
export function serviceUnavailable(parts: SandboxParts, call: V1Call): EncodedResponse {
  logRequest(parts, call, null, false, 'http-5xx');
  return errorResponse(503, 'sandbox fault: service unavailable (nothing was processed)');
}

/** Fault `reset-after`: the request was processed, its answer is never written. */
export function resetAfter(req: IncomingMessage, call: V1Call): void {
  req.socket.destroy();
  call.answered();
}

/** Waits the fault's latency: the gateway's processing time. */
export function latency(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
