// Every refusal code the sandbox answers with, in one table: requests refused as a whole and a repeated order_no
// (REFUSALS, UNKNOWNS U05, U40, U47), per-order failures (ORDER_ERRORS, E2xx and E3xx, UNKNOWNS U48) and the other
// per-record ones (RECORD_ERRORS). `<code>:<message>`, the sandbox's own codes.

/** Each refusal's code and the message that follows it after a colon (built from what the request carried). */
export const REFUSALS = {
  unknownMerchant: { code: 'E001', message: () => 'unknown merchant_id or account_id' },
  overBatchLimit: { code: 'E002', message: (array: string, count: number, limit: number) => `${array} carries ${count} orders; at most ${limit} per request` },
  badSignature: { code: 'E003', message: () => 'encryption_data does not verify' },
  incompletePayment: {
    code: 'E004',
    message: (missing: readonly string[]) => `${missing.join(', ')} missing: the sandbox takes no payment without order_no, amount and currency`,
  },
  otherPayoutParameters: {
    code: 'E005',
    message: (requestId: string) =>
      `request_id ${requestId} was already used for a payout with other parameters; the first payout stands. Resend its exact parameters to read it, or use a new request_id for a new payout`,
  },
  orderNoUsed: { code: '1001', message: (orderNo?: string) => `order_no${orderNo === undefined ? '' : ` ${orderNo}`} already used on this account` },
} as const;

/** The name of a refusal in REFUSALS. */
export type RefusalKind = keyof typeof REFUSALS;

/** A refusal's code. */
export type RefusalCode = (typeof REFUSALS)[RefusalKind]['code'];

/** The `<code>:<message>` text of a refusal, as `return_message`, `result_info` or an HTTP error's message carries it. */
export function refusalText<K extends RefusalKind>(kind: K, ...details: Parameters<(typeof REFUSALS)[K]['message']>): string {
  const { code, message } = REFUSALS[kind];
  return `${code}:${(message as (...args: typeof details) => string)(...details)}`;
}

/** Per-element failures: `<code>:<message>`, the sandbox's own codes (UNKNOWNS U48). */
export const ORDER_ERRORS = {
  notFound: 'E201:order not found for this merchant',
  mismatch: 'E202:currency or amount differs from the order',
  declined: 'E203:order was declined',
  cancelled: 'E204:order is cancelled',
  captured: 'E205:order is already captured',
  notCaptured: 'E206:order is not captured',
  refundedFully: 'E207:order is fully refunded',
  reviewFlag: 'E208:review_flag must be 1 (approve) or 0 (reject)',
  reviewState: 'E209:only an authorised order can be reviewed',
  incomplete: 'E210:amount and currency are needed to act on an order',
  pending: 'E211:order is pending: the shopper has not completed the payment yet (query it again later, or wait for its notification)',
  expired: 'E212:order expired unpaid: the shopper never completed the payment',
  refundAmount: 'E301:refund_amount is not a positive amount with at most two decimals',
  refundTooMuch: 'E302:refund_amount exceeds the captured amount not yet refunded',
  refundCount: 'E303:an order takes at most 99 refunds',
} as const;

/** Per-record failures ORDER_ERRORS does not list (kept apart so its released shape stays as it is). */
export const RECORD_ERRORS = {
  /** E205 worded for a cancel: the order is captured, so a refund is what undoes it. */
  capturedCancel: 'E205:order is captured; refund it instead',
  /** A subscription cancel naming no subscription of this merchant by recurring_id and contract_name. */
  subscriptionNotFound: 'E401:no subscription with this recurring_id and contract_name',
} as const;
