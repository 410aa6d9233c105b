/** One (field path, value) pair of a signable message. */
export interface SignableField {
  /** Where the value sits in the record: `merchant_id`, `capture_orders[0].amount`, `the service`. */
  readonly path: string;
  /** The value as text: strings as-is, numbers and booleans as their JSON text, null as "". */
  readonly value: string;
}
