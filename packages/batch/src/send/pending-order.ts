/** An input order as a record of members. */
export type Order = Record<string, unknown>;

/** One input order on its way: where it stood in the input and how many times it was sent after a reconciliation. */
export interface PendingOrder {
  readonly index: number;
  readonly order: Order;
  readonly resends: number;
  /**
   * How many of its sends a stop or crash cut off with nothing to prove they left (an intent with no `sent` line and
   * no outcomes, which a query then showed not applied): they do not count against `maxResends`. Absent when 0.
   */
  readonly interrupted?: number;
  /** Card fields the input order carried, taken out before anything saw them: the order is refused at intake. */
  readonly cardFields?: readonly string[];
}

/** A member's text, or '' when it is not text. */
export { textOf as text } from '@gw/types';

/** An error's message, or the thrown value in words. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
