import type { SandboxOrder } from './state.ts';

/**
 * The sandbox's own `payment_status` codes, one per state (UNKNOWNS U28): the gateway's codes are not shown, so
 * these say nothing about it. `3000` is the value the seed shows; the others are the sandbox's. Reconciliation
 * against the sandbox reads them through `sandboxReconciler`.
 */
export const SANDBOX_PAYMENT_STATUS = {
  authorised: '3000',
  captured: '3001',
  partially_refunded: '3002',
  refunded: '3003',
  cancelled: '3004',
  declined: '3005',
  pending: '3006',
  expired: '3007',
} as const satisfies Record<SandboxOrder['state'], string>;
