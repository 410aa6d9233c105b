// `@gw/sandbox/client`: what a client of the sandbox needs, without loading the sandbox server (its store, pages and
// notifier): the default merchant and signing secret, the sandbox's payment_status codes and its batch reconciler. A
// `gw batch` process or a fleet worker imports this, not the package's main entry.
export { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, type SandboxMerchant } from './options/sandbox-options.ts';
export { SANDBOX_PAYMENT_STATUS } from './state/payment-status.ts';
export { sandboxReconciler, type SandboxReconcileInput } from './reconcile/sandbox-reconciler.ts';
