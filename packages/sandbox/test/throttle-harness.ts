// Throttle test helpers: requests signed ahead of time, then sent together over real HTTP, answers with their headers.
import { operations, type OperationName } from '@gw/types';
import type { Sandbox } from '../src/index.ts';
import { encodeBody, jsonOf, signed } from './harness.ts';

/** A request ready to send: path, body and content type. */
export interface ReadyRequest {
  readonly path: string;
  readonly body: string;
  readonly contentType: string;
}

/** What came back, with the Retry-After header (null when absent). */
export interface ThrottleReply {
  status: number;
  retryAfter: string | null;
  json: any;
}

/** Signs and encodes a request now, to send later (as a merchant account other than the default when the record names one). */
export async function ready(operation: OperationName, record: Record<string, unknown>): Promise<ReadyRequest> {
  const op = operations[operation];
  return { path: op.path, body: encodeBody(operation, await signed(operation, record)), contentType: op.requestMediaType };
}

/** POSTs one ready request. */
export async function fire(sandbox: Sandbox, request: ReadyRequest): Promise<ThrottleReply> {
  const response = await fetch(`${sandbox.url}${request.path}`, { method: 'POST', headers: { 'content-type': request.contentType }, body: request.body });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), json: jsonOf(text) };
}

/** POSTs every ready request at once; the answers in the same order. */
export function fireAll(sandbox: Sandbox, requests: readonly ReadyRequest[]): Promise<ThrottleReply[]> {
  return Promise.all(requests.map((request) => fire(sandbox, request)));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
