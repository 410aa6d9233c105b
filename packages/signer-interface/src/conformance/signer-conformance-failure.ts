/** The checks of the conformance kit, by id. */
export const SIGNER_CONFORMANCE_CHECK_IDS = [
  'contract',
  'round-trip',
  'determinism',
  'tamper-every-field',
  'nested-structures',
  'add-remove-fields',
  'encryption-data-excluded',
  'unicode',
  'empty-values',
  'large-batches',
  'concurrency',
  'malformed-signatures',
  'other-secret',
] as const;

/** The id of one conformance check. */
export type SignerConformanceCheckId = (typeof SIGNER_CONFORMANCE_CHECK_IDS)[number];

/** One way a signer broke the contract: which check, on which record and field (never a field's value). */
export interface SignerConformanceFailure {
  readonly check: SignerConformanceCheckId;
  /** The record the check used, e.g. `capture request (3 orders)`. */
  readonly fixture?: string;
  /** The field that was changed, added or removed, e.g. `capture_orders[1].amount`. */
  readonly path?: string;
  readonly message: string;
}
