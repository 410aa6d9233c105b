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
  readonly drift: DriftEntry[];
  readonly observations: Record<string, OperationObservations>;
}
