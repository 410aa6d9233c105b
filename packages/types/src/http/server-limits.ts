// The bounds every gw HTTP server keeps on its connections and requests (the sandbox, `gw proxy`, `gw listen`), and
// the time limit of one call to the gateway: defaults written once (UNKNOWNS U51), none a claim about the gateway.
import type { ServerOptions } from 'node:http';

/** Time limit of one call to the gateway, from sending to the end of its answer (ms): the client's, a batch's, the proxy's. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/** The limits a gw HTTP server takes as options (each optional: its default from SERVER_LIMIT_DEFAULTS). */
export interface ServerLimitOptions {
  /** Largest request body in bytes. Default 1 MiB (UNKNOWNS U51). */
  readonly maxBodyBytes?: number;
  /** Time allowed to receive a request's headers; the connection is then closed (HTTP 408). Default 10 s. */
  readonly headersTimeoutMs?: number;
  /** Time allowed to receive a whole request, headers and body (at least the headers' limit); then HTTP 408. Default 30 s. */
  readonly requestTimeoutMs?: number;
  /** Longest pause while a request body arrives: HTTP 408, connection closed. Default 10 s. */
  readonly bodyTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open. Default 5 s. */
  readonly keepAliveTimeoutMs?: number;
  /** Open connections at most; connections over it are closed at once. Default 256. */
  readonly maxConnections?: number;
}

/** Every bound of a running server, with the defaults filled in. */
export interface ServerLimits {
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly maxConnections: number;
  /** What node:http enforces itself: headers, whole request and keep-alive idle time. */
  readonly serverOptions: ServerOptions;
}

/** The defaults, listed in the sandbox's README and UNKNOWNS U51. */
export const SERVER_LIMIT_DEFAULTS = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
  bodyTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 256,
});

/** A server's limits from its options (only the limit options are read). */
export function serverLimits(options: ServerLimitOptions): ServerLimits {
  const d = SERVER_LIMIT_DEFAULTS;
  const headersTimeout = options.headersTimeoutMs ?? d.headersTimeoutMs;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? d.requestTimeoutMs, headersTimeout);
  const keepAliveTimeout = options.keepAliveTimeoutMs ?? d.keepAliveTimeoutMs;
  // node:http checks headers and request time-outs on this interval: a fraction of the shortest, so they hold closely.
  const connectionsCheckingInterval = Math.max(25, Math.min(1000, Math.floor(Math.min(headersTimeout, requestTimeout) / 4)));
  return {
    maxBodyBytes: options.maxBodyBytes ?? d.maxBodyBytes,
    bodyTimeoutMs: options.bodyTimeoutMs ?? d.bodyTimeoutMs,
    maxConnections: options.maxConnections ?? d.maxConnections,
    serverOptions: { headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval },
  };
}
