import type { ServerResponse } from 'node:http';
import type { StateKeeper, StateNotKeptError } from '../store/state-keeper.ts';
import { errorResponse, type EncodedResponse } from '../wire/body.ts';

// Answers are written in the event loop's check phase, after the poll phase has read every request that arrived with
// this one, rather than from the microtask that produced them: measured in bench/sandbox, a bare node:http server
// answers about 1.3x the requests per second that way (bench/RESULTS.md).
/** Writes an encoded answer unless the connection is gone. */
export function writeResponse(res: ServerResponse, response: EncodedResponse): void {
  if (res.destroyed) return;
  res.writeHead(response.status, { 'content-type': response.contentType, 'content-length': Buffer.byteLength(response.body) });
  res.end(response.body);
}

/** The answer of a /v1 request whose changes the state file could not keep (a full disk): HTTP 503, nothing applied. */
function notKeptResponse(failure: StateNotKeptError): EncodedResponse {
  return errorResponse(503, `sandbox state file not writable: nothing of this request was applied; send it again later`, [
    { path: 'stateFile', message: failure.message },
  ]);
}

/** Something told once the answer is written: a request's place in its merchant account's quota, given back. */
export interface AnswerWatcher {
  answered(): void;
}

function writeThenTell(res: ServerResponse, response: EncodedResponse, watcher: AnswerWatcher): void {
  writeResponse(res, response);
  watcher.answered();
}

/**
 * Sends a /v1 answer: at once when its request changed nothing (`changedAfter` null); otherwise once the state file
 * kept the change, or HTTP 503 when it could not (the change is then undone). `watcher` (null unless the throttle
 * counts the request) is told right after the answer is written.
 */
export function sendAnswer(
  keeper: StateKeeper,
  res: ServerResponse,
  response: EncodedResponse,
  changedAfter: number | null,
  watcher: AnswerWatcher | null = null,
): void {
  if (changedAfter === null) {
    if (watcher === null) writeResponse(res, response);
    else writeThenTell(res, response, watcher);
  } else {
    keeper.afterKept(changedAfter, (failure) => {
      writeResponse(res, failure ? notKeptResponse(failure) : response);
      watcher?.answered();
    });
  }
}
