// The sandbox's own bounds on connections and requests (UNKNOWNS U51): none is a claim about the gateway.
import type { ServerOptions } from 'node:http';
import type { SandboxOptions } from '../options.ts';

/** Every bound of a running sandbox, with the defaults filled in. */
export interface ServerLimits {
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly maxConnections: number;
  /** What node:http enforces itself: headers, whole request and keep-alive idle time. */
  readonly serverOptions: ServerOptions;
}

/** The defaults, listed in the README and UNKNOWNS U51; `gw listen` uses them too. */
export const SANDBOX_LIMIT_DEFAULTS = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  bodyTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 256,
});

/** The sandbox's limits from its options (only the limit options are read: `gw listen` bounds its server with them). */
export function serverLimits(options: Pick<SandboxOptions, 'maxBodyBytes' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'bodyTimeoutMs' | 'keepAliveTimeoutMs' | 'maxConnections'>): ServerLimits {
  const d = SANDBOX_LIMIT_DEFAULTS;
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
