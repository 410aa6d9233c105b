import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../wire/read-body.ts';
import { SandboxHttpError } from '../refusals/errors.ts';
import { CONTROL_ERROR_CODES, ControlError } from './control-error.ts';

/** Writes a JSON answer (bigint members as decimal text, though the views hold none). */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

/** Reads a request body within the sandbox's limits, as text. */
export async function readText(req: IncomingMessage, limits: { limit: number; idleMs: number }): Promise<string> {
  try {
    return (await readBody(req, limits)).toString('utf8');
  } catch (error) {
    if (error instanceof SandboxHttpError) throw new ControlError(error.status, CONTROL_ERROR_CODES.invalidRequest, error.message);
    throw error;
  }
}

/** Reads a JSON object body; an empty body is `{}`. */
export async function readJsonObject(req: IncomingMessage, limits: { limit: number; idleMs: number }): Promise<Record<string, unknown>> {
  const text = await readText(req, limits);
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ControlError(400, CONTROL_ERROR_CODES.invalidRequest, `the body is not JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ControlError(400, CONTROL_ERROR_CODES.invalidRequest, 'the body must be a JSON object');
  return value as Record<string, unknown>;
}

/**
 * Refuses a state-changing request sent by a page of another origin (a browser's cross-site form post to 127.0.0.1):
 * the control API has no authentication, so this is its one guard against a page the operator happens to visit.
 */
export function refuseCrossOrigin(req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = '';
  }
  if (host !== req.headers.host) {
    throw new ControlError(
      403,
      CONTROL_ERROR_CODES.crossOrigin,
      `a request from ${origin} may not change this sandbox; use its own console or call it without an Origin header`,
      { origin },
    );
  }
}
