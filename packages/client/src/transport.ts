import { Agent, type Dispatcher } from 'undici';

/** How requests travel: a keep-alive undici Agent of the client's own, or a dispatcher you pass (Agent, Pool, ProxyAgent). */
export interface TransportOptions {
  /** An undici 8 Dispatcher to send through (a `ProxyAgent` for a proxy). The client does not close a dispatcher it was given. */
  readonly dispatcher?: Dispatcher;
  /** Most connections per origin of the client's own Agent. Default: no limit. */
  readonly connections?: number;
  /** How long an idle keep-alive connection of the client's own Agent stays open, in ms. Default 4000. */
  readonly keepAliveTimeoutMs?: number;
}

/** One HTTP answer: status and the raw body bytes. */
export interface Exchange {
  readonly status: number;
  readonly body: Buffer;
  /** The answer's Retry-After header, when it has one (a throttle: UNKNOWNS U50). */
  readonly retryAfter?: string;
}

/** What went wrong on the wire, and whether the request had started to go out when it did. */
export type TransportFailureKind = 'timeout' | 'network' | 'too-large' | 'refused-before-write';

/** A failed exchange. Internal: the client turns it into a typed error; it never carries a request or response body. */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';
  readonly kind: TransportFailureKind;
  /** False only when the request certainly never reached the socket (queued, connecting, refused, DNS). */
  readonly sent: boolean;
  /** The transport's error code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`, or `timeout`. */
  readonly reason: string;

  constructor(kind: TransportFailureKind, sent: boolean, reason: string, options?: { cause?: unknown }) {
    super(`${kind} (${reason}, ${sent ? 'sent' : 'not sent'})`, options);
    this.kind = kind;
    this.sent = sent;
    this.reason = reason;
  }
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** One request to send. */
export interface ExchangeRequest {
  readonly origin: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly timeoutMs: number;
  /** Larger response bodies are cut off with a `too-large` failure (UNKNOWNS U51). */
  readonly maxResponseBytes: number;
  /** Runs just before the request is written to a socket; a throw stops it unwritten (`refused-before-write`, not sent). */
  readonly beforeWrite?: (() => void) | undefined;
}

function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.name : 'unknown';
}

/**
 * Receives one answer through undici's dispatch API. `onRequestStart` runs just before undici writes the request to
 * a socket, so a failure before it proves the request never left: the difference between "safe to send again" and
 * "outcome unknown" for money-moving operations.
 */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  readonly #resolve: (exchange: Exchange) => void;
  readonly #reject: (failure: TransportFailure) => void;
  readonly #maxBytes: number;
  #controller: Dispatcher.DispatchController | null = null;
  #abortReason: TransportFailure | null = null;
  #sent = false;
  #settled = false;
  #status = 0;
  #retryAfter: string | undefined;
  #chunks: Buffer[] = [];
  #size = 0;
  timer: NodeJS.Timeout | undefined;

  readonly #beforeWrite: (() => void) | undefined;

  constructor(resolve: (exchange: Exchange) => void, reject: (failure: TransportFailure) => void, maxBytes: number, beforeWrite?: () => void) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#maxBytes = maxBytes;
    this.#beforeWrite = beforeWrite;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#abortReason) {
      // Timed out while queued or connecting: stop here, before a single byte is written.
      controller.abort(this.#abortReason);
      return;
    }
    if (this.#beforeWrite) {
      try {
        this.#beforeWrite();
      } catch (error) {
        // The caller's last check refused it (a batch worker whose lease ran out): not a byte is written.
        const failure = new TransportFailure('refused-before-write', false, 'refused-before-write', { cause: error });
        controller.abort(failure);
        if (this.#settle()) this.#reject(failure);
        return;
      }
    }
    this.#controller = controller;
    this.#sent = true;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (statusCode < 200) return;
    this.#status = statusCode;
    const retryAfter = headers['retry-after'];
    this.#retryAfter = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#size > this.#maxBytes) {
      controller.abort(new TransportFailure('too-large', true, 'too-large'));
      return;
    }
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (!this.#settle()) return;
    const body = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#size);
    this.#resolve(this.#retryAfter === undefined ? { status: this.#status, body } : { status: this.#status, body, retryAfter: this.#retryAfter });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (!this.#settle()) return;
    this.#reject(error instanceof TransportFailure ? error : new TransportFailure('network', this.#sent, errorCode(error), { cause: error }));
  }

  /** The time is up: abort, and say whether the request had started to go out. */
  expire(): void {
    const failure = new TransportFailure('timeout', this.#sent, 'timeout');
    if (this.#controller) this.#controller.abort(failure);
    else this.#abortReason = failure;
    if (this.#settle()) this.#reject(failure);
  }

  fail(error: unknown): void {
    if (this.#settle()) this.#reject(new TransportFailure('network', false, errorCode(error), { cause: error }));
  }

  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    clearTimeout(this.timer);
    return true;
  }
}

/** Sends requests over keep-alive connections with a time limit, telling apart "never sent" from "sent, no answer". */
export class Transport {
  readonly #dispatcher: Dispatcher;
  readonly #owned: boolean;

  constructor(options: TransportOptions = {}) {
    this.#owned = options.dispatcher === undefined;
    this.#dispatcher =
      options.dispatcher ?? new Agent({ keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000, connections: options.connections ?? null, pipelining: 1 });
  }

  /** Sends one POST and resolves with the answer, or rejects with a TransportFailure. */
  exchange(request: ExchangeRequest): Promise<Exchange> {
    return new Promise<Exchange>((resolve, reject) => {
      const handler = new ExchangeHandler(resolve, reject, request.maxResponseBytes, request.beforeWrite);
      // setTimeout fires at once for delays past 2^31-1 ms; such a limit means "wait as long as a timer can".
      handler.timer = setTimeout(() => handler.expire(), Math.min(request.timeoutMs, MAX_TIMER_MS));
      try {
        this.#dispatcher.dispatch({ origin: request.origin, path: request.path, method: 'POST', headers: request.headers, body: request.body }, handler);
      } catch (error) {
        handler.fail(error);
      }
    });
  }

  /** Closes the client's own Agent (a dispatcher passed in is left to its owner). */
  async close(): Promise<void> {
    if (this.#owned) await this.#dispatcher.close();
  }
}
