import type { ServerResponse } from 'node:http';
import type { SandboxState } from '../state/state.ts';

/** Keeps an error nothing answered for in `state.internalErrors` (a test reads them): its stack, or its text. */
export function recordInternalError(state: SandboxState, error: unknown): void {
  state.internalErrors.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
}

/** Records an error that escaped a request's handling and answers HTTP 500 when nothing was sent yet. */
export function answerInternalError(state: SandboxState, res: ServerResponse, error: unknown): void {
  recordInternalError(state, error);
  if (!res.headersSent) res.writeHead(500).end();
}
