import type {
  CancelOrder,
  CancelOrderResult,
  CancelResponse,
  CaptureOrder,
  CaptureOrderResult,
  CaptureResponse,
  QueriedOrder,
  QueryResponse,
  RefundOrder,
  RefundOrderResult,
  RefundResponse,
  ReviewOrder,
  ReviewOrderResult,
  ReviewResponse,
} from '@gw/types';

/** The operations a batch runs: the four order operations and query. */
export type BatchOperation = 'capture' | 'cancel' | 'review' | 'refund' | 'query';

/** One order to select in a query batch. */
export interface QuerySelection {
  readonly order_no?: string;
  readonly transaction_id?: string;
}

/** The input record of one order, per operation. */
export interface BatchOrders {
  capture: CaptureOrder;
  cancel: CancelOrder;
  review: ReviewOrder;
  refund: RefundOrder;
  query: QuerySelection;
}

/** The per-order result element the gateway answers, per operation. */
export interface BatchResults {
  capture: CaptureOrderResult;
  cancel: CancelOrderResult;
  review: ReviewOrderResult;
  refund: RefundOrderResult;
  query: QueriedOrder;
}

/**
 * What `runBatch` needs of a client: one method per batch operation, taking the request without merchant fields and
 * throwing errors with the stable codes of `@gw/client` (`GW_OUTCOME_UNKNOWN`, `GW_GATEWAY`, `GW_HTTP`, ...).
 * `createClient` from `@gw/client` satisfies it.
 */
export interface BatchClient {
  capture(request: { capture_orders: CaptureOrder[] }): Promise<CaptureResponse>;
  cancel(request: { cancel_orders: CancelOrder[] }): Promise<CancelResponse>;
  review(request: { review_orders: ReviewOrder[] }): Promise<ReviewResponse>;
  refund(request: { refund_orders: RefundOrder[] }): Promise<RefundResponse>;
  query(request: { order_no?: string; transaction_id?: string }): Promise<QueryResponse>;
}
