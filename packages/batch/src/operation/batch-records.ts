import type { GwClient } from '@gw/client';
import type {
  CancelOrder,
  CancelOrderResult,
  CaptureOrder,
  CaptureOrderResult,
  QueriedOrder,
  RefundOrder,
  RefundOrderResult,
  ReviewOrder,
  ReviewOrderResult,
} from '@gw/types';

import type { BatchOperation } from './batch-operations.ts';

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
 * What `runBatch` needs of a client: the `@gw/client` client's method for each batch operation, throwing errors with
 * its stable codes (`GW_OUTCOME_UNKNOWN`, `GW_GATEWAY`, `GW_HTTP`, ...). `createClient` from `@gw/client` satisfies it.
 * Each batch method takes a `GuardedCall` (its answer vouched for), so a wrapper that drops a call's options is not
 * one; the batch reaches it through one `BatchTransport` (send/batch-transport.ts).
 */
export type BatchClient = Pick<GwClient, BatchOperation>;
