import { GW_ERROR_CODES, GwError } from '@gw/types';

/** Why an `items` record cannot be written. */
export type ItemsFormatFailure =
  /** A component contains `#,#` or `#;#`. */
  | 'contains-separator'
  /** A component ends with `#,` or `#;`, which would form a separator with the text that follows it. */
  | 'forms-separator'
  /** A record is not four strings. */
  | 'record-shape';

/** Context of an items encoding failure: which record and component, and why (never the component's text). */
export interface ItemsFormatErrorDetails {
  readonly failure: ItemsFormatFailure;
  readonly record: number;
  /** The component index 0..3, or `null` when the record as a whole is wrong. */
  readonly component: number | null;
}

/** An `items` record cannot be encoded without corrupting it: code `GW_ITEMS`. */
export class ItemsFormatError extends GwError<ItemsFormatErrorDetails> {
  override readonly name = 'ItemsFormatError';

  constructor(details: ItemsFormatErrorDetails, message: string) {
    const where = details.component === null ? `items[${details.record}]` : `items[${details.record}][${details.component}]`;
    super(GW_ERROR_CODES.items, `${where}: ${message}`, details);
  }
}
