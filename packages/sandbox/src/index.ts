export { startSandbox, type Sandbox } from './start-sandbox.ts';
export { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, type SandboxMerchant, type SandboxOptions } from './options.ts';
export type { FaultKind, FaultRule, FaultRules } from './faults.ts';
export type { NotifyOptions } from './notifier.ts';
export { SandboxState, type LedgerEntry, type NotificationDelivery, type OrderEvent, type OrderState, type ReceivedRequest, type SandboxOrder, type SandboxRefund, type SandboxSubscription } from './state.ts';
export { SANDBOX_PAYMENT_STATUS } from './operations/query.ts';
export { ORDER_ERRORS } from './operations/orders.ts';
export { DECLINE_CENTS, TEST_CARDS } from './test-cards.ts';
export { sandboxReconciler, type SandboxReconcileInput } from './reconcile.ts';
