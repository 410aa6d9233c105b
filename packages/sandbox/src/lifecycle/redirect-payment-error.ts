import type { OrderState } from '../state/state.ts';

/** Details of a RedirectPaymentError. */
export interface RedirectPaymentErrorDetails {
  readonly transactionId: string;
  /** The state the order is in. */
  readonly state: OrderState;
  /** The outcome that was asked for. */
  readonly outcome: string;
}

/** A shopper, operator or clock acted on an order that is not waiting for the shopper (code `not-pending`). */
export class RedirectPaymentError extends Error {
  override readonly name = 'RedirectPaymentError';
  readonly code = 'not-pending' as const;
  readonly details: RedirectPaymentErrorDetails;

  constructor(details: RedirectPaymentErrorDetails) {
    super(`order ${details.transactionId} is ${details.state}, not pending: it cannot become ${details.outcome}; only a pending order waits for the shopper`);
    this.details = details;
  }

  toJSON(): { name: string; code: string; message: string; details: RedirectPaymentErrorDetails } {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}
