// Requests refused as a whole, and a repeated order_no: `<code>:<message>`, the sandbox's own codes (UNKNOWNS U05,
// U40, U47). The codes of per-order failures (E2xx, E3xx) are ORDER_ERRORS in operations/orders.ts.
import { SandboxRefusal } from './errors.ts';

/** Each refusal's code and the message that follows it after a colon (built from what the request carried). */
export const REFUSALS = {
  unknownMerchant: { code: 'E001', message: () => 'unknown merchant_id or account_id' },
  overBatchLimit: { code: 'E002', message: (array: string, count: number, limit: number) => `${array} carries ${count} orders; at most ${limit} per request` },
  badSignature: { code: 'E003', message: () => 'encryption_data does not verify' },
  incompletePayment: { code: 'E004', message: (missing: readonly string[]) => `${missing.join(', ')} missing: the sandbox takes no payment without order_no, amount and currency` },
  otherPayoutParameters: {
    code: 'E005',
    message: (requestId: string) => `request_id ${requestId} was already used for a payout with other parameters; the first payout stands. Resend its exact parameters to read it, or use a new request_id for a new payout`,
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

/** A SandboxRefusal of a request refused as a whole (HTTP 200 with the operation's refusal record). */
export function refusal<K extends RefusalKind>(kind: K, ...details: Parameters<(typeof REFUSALS)[K]['message']>): SandboxRefusal {
  const { code, message } = REFUSALS[kind];
  return new SandboxRefusal(code, (message as (...args: typeof details) => string)(...details));
}
