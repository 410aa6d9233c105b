import { request as httpRequest, type Agent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Exchange } from '../check/exchange.ts';
import { Capture } from './capture.ts';
import { answerHeaders, upstreamHeaders } from './headers.ts';

/** Where and how requests are forwarded. */
export interface ForwardTarget {
  readonly upstream: URL;
  readonly agent: Agent;
  /** Most bytes of a body kept for checking; a larger body is forwarded whole and left unchecked. */
  readonly captureLimit: number;
  /** The longest pause in the upstream's answer before it is given up (HTTP 504 if nothing was answered yet). */
  readonly timeoutMs: number;
  /** The longest a whole exchange may take, from forwarding to the answer's last byte (HTTP 504 if nothing was answered yet). */
  readonly deadlineMs: number;
  /** Called when an exchange was cut at the deadline (never drift: the upstream was slow, not shaped otherwise). */
  readonly onDeadline: (path: string) => void;
}

/** The upstream request given up because its whole answer did not come within the deadline. */
class UpstreamDeadline extends Error {
  readonly code = 'upstream-deadline';
}

/** The proxy's own answer when the upstream cannot be reached: the only bytes it ever writes itself. */
function answerOwnError(res: ServerResponse, status: number, message: string): void {
  if (res.destroyed) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ proxy_error: message });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-gw-proxy-error': '1' });
  res.end(body);
}

/**
 * Streams a request to the upstream and its answer back, both unchanged (end-to-end headers, status and body bytes),
 * keeping a bounded copy of each body beside the stream; `done` gets the exchange once the answer has been written.
 */
export function forward(req: IncomingMessage, res: ServerResponse, target: ForwardTarget, done: (exchange: Exchange) => void): void {
  const requestCapture = new Capture(target.captureLimit);
  const send = target.upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstreamPath = `${target.upstream.pathname.replace(/\/$/, '')}${req.url ?? '/'}`;
  const outgoing = send({
    protocol: target.upstream.protocol,
    hostname: target.upstream.hostname,
    port: target.upstream.port,
    method: req.method,
    path: upstreamPath,
    headers: upstreamHeaders(req.headers, target.upstream.host),
    agent: target.agent,
    timeout: target.timeoutMs,
  });
  outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer from the upstream for ${target.timeoutMs} ms`)));
  outgoing.on('error', (error) =>
    answerOwnError(res, error instanceof UpstreamDeadline || error.message.startsWith('no answer') ? 504 : 502, `upstream: ${error.message}`),
  );
  bindLifetime(req, res, outgoing, target);
  outgoing.on('response', (answer) => {
    const responseCapture = new Capture(target.captureLimit);
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders(answer.rawHeaders));
    answer.on('data', (chunk: Buffer) => responseCapture.add(chunk));
    answer.pipe(res);
    answer.on('error', () => res.destroy());
    const retryAfter = answer.headers['retry-after'];
    answer.on('end', () =>
      done({
        path: (req.url ?? '/').split('?')[0]!,
        method: req.method ?? '',
        requestContentType: String(req.headers['content-type'] ?? ''),
        requestBody: requestCapture.body(),
        status: answer.statusCode ?? 0,
        responseContentType: String(answer.headers['content-type'] ?? ''),
        responseBody: responseCapture.body(),
        ...(retryAfter === undefined ? {} : { retryAfter }),
      }),
    );
  });
  req.on('data', (chunk: Buffer) => requestCapture.add(chunk));
  req.on('error', () => outgoing.destroy());
  req.pipe(outgoing);
}

/**
 * Ties the upstream request's life to its client's and to the deadline: the deadline gives the upstream up (a 504, or
 * the client's connection destroyed once the answer had begun), and a client that goes away before its answer ended
 * aborts the upstream request at once, so its socket is freed rather than held until the upstream's own time-out.
 */
function bindLifetime(req: IncomingMessage, res: ServerResponse, outgoing: ClientRequest, target: ForwardTarget): void {
  const deadline = setTimeout(() => {
    if (res.writableFinished) return;
    target.onDeadline((req.url ?? '/').split('?')[0]!);
    const headersSent = res.headersSent;
    outgoing.destroy(new UpstreamDeadline(`the whole answer did not come within ${target.deadlineMs} ms`));
    if (headersSent) res.destroy();
  }, target.deadlineMs);
  deadline.unref();
  res.once('finish', () => clearTimeout(deadline));
  res.once('close', () => {
    clearTimeout(deadline);
    if (!res.writableFinished && !outgoing.destroyed) outgoing.destroy();
  });
}
