import type { ServerLimitOptions } from '@gw/types';
import type { Verifier } from '@gw/signer-interface';
import type { Exchange } from './check/exchange.ts';

/** How a checking proxy runs; its own server's time-outs and connection bound are every gw server's (`SERVER_LIMIT_DEFAULTS`). */
export interface ProxyOptions extends Pick<ServerLimitOptions, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'maxConnections'> {
  /** The gateway's base address (the `/v1` paths are appended), e.g. `https://gateway.example` (UNKNOWNS U01). */
  readonly upstream: string;
  /** Port on 127.0.0.1; default 0 (any free port). */
  readonly port?: number;
  /** Where the drift report is written as traffic goes (a JSON file); default none (read it from `proxy.report`). */
  readonly reportFile?: string;
  /** Verifies answers' `encryption_data`; default none (signatures are then not checked, and the report says so). */
  readonly verifier?: Verifier;
  /** Most bytes of a body checked; larger bodies are forwarded whole and counted unchecked. Default 1 MiB (UNKNOWNS U51). */
  readonly maxBodyBytes?: number;
  /** The longest pause in the upstream's answer; default 30000 ms, the client's timeout (UNKNOWNS U51). */
  readonly timeoutMs?: number;
  /**
   * The longest a whole exchange may take, from forwarding the request to the answer's last byte; default 60000 ms
   * (UNKNOWNS U56). An upstream still answering then is given up: the client gets HTTP 504 if nothing was sent yet, else
   * its connection is closed; the report counts it under `deadlines`, never as drift.
   */
  readonly upstreamDeadlineMs?: number;
  /** Called with every exchange once answered (bodies as they passed, card data included: the caller's own traffic). */
  readonly onExchange?: (exchange: Exchange) => void;
}
