/** What kind of difference between the traffic and the spec a drift entry records. */
export type DriftKind =
  | 'unknown-field'
  | 'wrong-type'
  | 'wrong-format'
  | 'missing-field'
  | 'card-data'
  | 'new-value'
  | 'status'
  | 'content-type'
  | 'wire-form'
  | 'signature'
  | 'undecodable'
  | 'unknown-path';

/** Which message of an exchange a drift entry is about. */
export type DriftSide = 'request' | 'response';

/** One kind of drift at one place of one operation, with how often and since when it was seen. */
export interface DriftEntry {
  readonly operation: string;
  readonly side: DriftSide;
  readonly kind: DriftKind;
  /** The field path (`capture_orders[].amount`; array indexes folded to `[]`), or `''` for the whole message. */
  readonly path: string;
  /** What the spec says there and what was seen, in words. */
  readonly message: string;
  count: number;
  readonly firstSeen: string;
  lastSeen: string;
  /** The first value seen, redacted: card data and the secret keep their shape (`9999…`), never their value. */
  readonly example: string;
  /** The JSON type of the value seen (`string`, `number`, …), for `--patch`; `null` when there is no value. */
  readonly seenType: string | null;
}

/** The least and the greatest of some counts. */
export interface CountRange {
  min: number;
  max: number;
}

/**
 * The throttles one operation's answers showed (UNKNOWNS U50): what the gateway's limits looked like from the team's own
 * traffic. Observations of an open point, not drift: the spec shows no status but 200, and none for "slow down".
 */
export interface ThrottleObservations {
  /** Answers that were throttles: HTTP 429, or 503 with a `Retry-After` (a 503 without one stays `status` drift). */
  count: number;
  /** Their HTTP statuses, with counts. */
  readonly statuses: Record<string, number>;
  /** When the first and the last throttle were seen. */
  readonly firstSeen: string;
  lastSeen: string;
  /** The waits asked for, in ms, read from `Retry-After` as the client reads it (seconds, or an HTTP date less the answer's time). */
  readonly retryAfterMs: {
    /** Throttles whose `Retry-After` could be read. */
    count: number;
    min: number | null;
    max: number | null;
    /** Each wait seen (ms) with its count; past 100 distinct ones, the rest are counted under `(other values)`. */
    readonly values: Record<string, number>;
    /** Throttles that carried no `Retry-After` (a 429 may have none). */
    absent: number;
    /** Throttles whose `Retry-After` was neither seconds nor an HTTP date. */
    unreadable: number;
  };
  /**
   * The team's pace when throttled: for each throttled request, how many requests started in the second up to its
   * start (it included), at this operation's path (the two authorise variants share one) and at every `/v1` path.
   */
  readonly requestsInSecondBefore: { readonly operation: CountRange; readonly all: CountRange };
}

/** What the traffic showed at the spec's open points for one operation (UNKNOWNS). */
export interface OperationObservations {
  /** Answers with HTTP 200 that were decoded. */
  answers: number;
  /** HTTP statuses of the answers, with counts (UNKNOWNS U49). */
  readonly statuses: Record<string, number>;
  /** Content types of the answers, with counts (UNKNOWNS U33). */
  readonly contentTypes: Record<string, number>;
  /** Request wire forms (json / form / xml), with counts (UNKNOWNS U31, U32). */
  readonly requestForms: Record<string, number>;
  /** For each place in a decoded answer: how many records had a place for it, and how many carried it (UNKNOWNS U05). */
  readonly fields: Record<string, { places: number; present: number }>;
  /** Values seen in fields with `x-gw-known-values` or a status, with counts, and the UNKNOWNS entry each answers. */
  readonly values: Record<string, { unknowns: string; counts: Record<string, number> }>;
  /** Throttles (429, or 503 with `Retry-After`) and the waits they asked for (UNKNOWNS U50); absent when there were none. */
  throttles?: ThrottleObservations;
}

/** The report `gw proxy` writes and `gw spec drift` reads. */
export interface DriftReport {
  readonly type: 'gw-drift-report';
  readonly version: 1;
  readonly upstream: string;
  readonly startedAt: string;
  updatedAt: string;
  /** Whether answers' `encryption_data` was verified (a verifier was configured). */
  readonly signaturesChecked: boolean;
  exchanges: number;
  /** Exchanges whose bodies were larger than the capture limit: forwarded, not checked. */
  unchecked: number;
  /**
   * Exchanges given up at the whole-answer deadline (`upstreamDeadlineMs`): the upstream was too slow, which says
   * nothing of its answers' shape, so they are neither checked nor drift. Absent in reports written before it was counted.
   */
  deadlines?: number;
  readonly drift: DriftEntry[];
  readonly observations: Record<string, OperationObservations>;
}
