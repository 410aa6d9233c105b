import type {
  AlternativeAuthoriseRequest,
  AlternativeRespon,
  CancelRequest,
  CancelResponse,
  CancelSubscriptionRequest,
  CancelSubscriptionResponse,
  CaptureRequest,
  CaptureResponse,
  CardAuthoriseRequest,
  CardRespon,
  CheckoutRequest,
  OperationName,
  PayoutRequest,
  PayoutResponse,
  QueryResponse,
  RefundRequest,
  RefundResponse,
  ReviewRequest,
  ReviewResponse,
} from '@gw/types';
import { operations } from '@gw/types';
import { OperationCaller, type CallOptions, type CheckoutResult } from './call-operation.ts';
import { resolveClientOptions, type ClientOptions } from './client-options.ts';
import type { QueryInput } from './query-selection.ts';

/** A request record as a method takes it: the client fills `merchant_id` and `account_id` and computes `encryption_data`. */
export type RequestInput<Request> = Omit<Request, 'merchant_id' | 'account_id' | 'encryption_data'>;

/** A client for the gateway's /v1 interface: one typed method per operation. */
export interface GwClient {
  /** POST /v1/authorise, card variant: a direct card payment; answers the card `respon` (signature required). */
  authoriseCard(request: RequestInput<CardAuthoriseRequest>, options?: CallOptions): Promise<CardRespon>;
  /** POST /v1/authorise, alternative-method variant (`payment_method` required); answers `respon` with `issuer_url`. */
  authoriseAlternative(request: RequestInput<AlternativeAuthoriseRequest>, options?: CallOptions): Promise<AlternativeRespon>;
  /** POST /v1/checkout: a hosted-page payment; answers the auto-submitting page, decoded, with its HTML. */
  checkout(request: RequestInput<CheckoutRequest>, options?: CallOptions): Promise<CheckoutResult>;
  /** POST /v1/retrievalTrans: up to 100 orders by `order_no` and/or `transaction_id`. Safe: retried on connection failures. */
  query(selection: QueryInput, options?: CallOptions): Promise<QueryResponse>;
  /** POST /v1/capture: up to 50 orders; each element's result is in `capture_orders`. */
  capture(request: RequestInput<CaptureRequest>, options?: CallOptions): Promise<CaptureResponse>;
  /** POST /v1/review: up to 100 orders; each element's result is in `review_orders`. */
  review(request: RequestInput<ReviewRequest>, options?: CallOptions): Promise<ReviewResponse>;
  /** POST /v1/cancel: up to 50 orders; each element's result is in `cancel_orders`. */
  cancel(request: RequestInput<CancelRequest>, options?: CallOptions): Promise<CancelResponse>;
  /** POST /v1/refund: up to 50 orders; each element's result is in `refund_orders`. */
  refund(request: RequestInput<RefundRequest>, options?: CallOptions): Promise<RefundResponse>;
  /** POST /v1/cancelsubscription (XML body): cancels a subscription by `recurring_id` and `contract_name`. */
  cancelSubscription(request: RequestInput<CancelSubscriptionRequest>, options?: CallOptions): Promise<CancelSubscriptionResponse>;
  /** POST /v1/payout: a payout identified by its `request_id`; never retried once sent. */
  payout(request: RequestInput<PayoutRequest>, options?: CallOptions): Promise<PayoutResponse>;
  /** Closes the client's keep-alive connections (not a dispatcher you passed in). */
  close(): Promise<void>;
  /** Same as close(), for `await using client = createClient(...)`. */
  [Symbol.asyncDispose](): Promise<void>;
}

// Every operation of the x-gw table has its method, and no method lacks an operation: a compile error otherwise.
type OperationMethods = Omit<GwClient, 'close' | typeof Symbol.asyncDispose>;
const everyOperationHasAMethod: [keyof OperationMethods] extends [OperationName] ? ([OperationName] extends [keyof OperationMethods] ? true : never) : never = true;
void everyOperationHasAMethod;

/** Creates a client: checks the options (ConfigError names a bad one) and opens nothing until the first call. */
export function createClient(options: ClientOptions): GwClient {
  const caller = new OperationCaller(resolveClientOptions(options));
  const client: Record<string | symbol, unknown> = {};
  // The methods come from the operation table, so a path, encoding or limit is never listed here by hand.
  for (const name of Object.keys(operations) as OperationName[]) {
    client[name] = (input: unknown, callOptions?: CallOptions) => caller.call(name, input, callOptions);
  }
  client.close = () => caller.close();
  client[Symbol.asyncDispose] = () => caller.close();
  return Object.freeze(client) as unknown as GwClient;
}
