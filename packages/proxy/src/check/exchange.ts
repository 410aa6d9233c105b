/** One request and its answer as they passed through the proxy; a body is null when it was larger than the capture limit. */
export interface Exchange {
  readonly path: string;
  readonly method: string;
  readonly requestContentType: string;
  readonly requestBody: Buffer | null;
  readonly status: number;
  readonly responseContentType: string;
  readonly responseBody: Buffer | null;
  /** The answer's `Retry-After` header as sent (seconds or an HTTP date); absent when it sent none (UNKNOWNS U50). */
  readonly retryAfter?: string;
}

/** The team's own pace when a request started: requests that started in the second up to it, it included. */
export interface RequestPace {
  /** At its path: its operation's (the two authorise variants share a path, UNKNOWNS U34). */
  readonly operation: number;
  /** At every `/v1` path. */
  readonly all: number;
}

/** When an exchange happened, beside what it carried: what throttles are read against (UNKNOWNS U50). */
export interface ExchangeTiming {
  /** When its answer came, in ms since the epoch: the time a `Retry-After` date is counted from, as the client counts it. */
  readonly answeredAt: number;
  readonly pace: RequestPace;
}
