import type { OrderOperation } from '../operations/order-operation.ts';
import { SANDBOX_PAYMENT_STATUS } from '../state/payment-status.ts';

type Verdict = 'applied' | 'not-applied' | 'unknown';

/** What `@gw/batch` asks a reconciler: the operation, the order as sent, and its query record. */
export interface SandboxReconcileInput {
  /** An order operation (OrderOperation, from the generated table): spelled out here because the API report pins it. */
  readonly operation: 'capture' | 'cancel' | 'review' | 'refund';
  readonly order: Readonly<Record<string, unknown>>;
  readonly queried: { readonly payment_status?: string } | undefined;
}

// The reconciler takes exactly the generated table's order operations: typecheck fails here when the spec changes them.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type ExpectTrue<T extends true> = T;
type ReconcilerTakesEveryOrderOperation = ExpectTrue<Same<SandboxReconcileInput['operation'], OrderOperation>>;

// No operation acts on an order still waiting for the shopper, or abandoned by them (E211, E212).
const NEVER_ACTED_ON = new Set<string>([SANDBOX_PAYMENT_STATUS.pending, SANDBOX_PAYMENT_STATUS.expired]);

const CAPTURED = new Set<string>([SANDBOX_PAYMENT_STATUS.captured, SANDBOX_PAYMENT_STATUS.partially_refunded, SANDBOX_PAYMENT_STATUS.refunded]);

/**
 * Reads the sandbox's own `payment_status` codes (SANDBOX_PAYMENT_STATUS) to tell whether an unanswered request took
 * effect: pass it as `reconcile` to `runBatch` when the gateway is the sandbox. It answers `unknown` whenever the
 * state cannot tell (an approving review, a refund of an order that already had refunds). Never use it against the
 * real gateway, whose codes are not shown (UNKNOWNS U28).
 */
export function sandboxReconciler(input: SandboxReconcileInput): Verdict {
  const status = input.queried?.payment_status;
  // Not found: the request cannot have acted on it; sending again gets the gateway's own per-order answer.
  if (status === undefined) return 'not-applied';
  if (NEVER_ACTED_ON.has(status)) return 'not-applied';
  switch (input.operation) {
    case 'capture':
      if (CAPTURED.has(status)) return 'applied';
      return 'not-applied';
    case 'cancel':
      return status === SANDBOX_PAYMENT_STATUS.cancelled ? 'applied' : 'not-applied';
    case 'review':
      if (input.order.review_flag === '0')
        return status === SANDBOX_PAYMENT_STATUS.cancelled ? 'applied' : status === SANDBOX_PAYMENT_STATUS.authorised ? 'not-applied' : 'unknown';
      return status === SANDBOX_PAYMENT_STATUS.authorised ? 'unknown' : 'not-applied';
    case 'refund':
      // Captured with no refund at all: this refund did not happen. Any refunded state may be an earlier refund's.
      return status === SANDBOX_PAYMENT_STATUS.captured ? 'not-applied' : 'unknown';
  }
}
