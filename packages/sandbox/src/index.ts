export { startSandbox, type Sandbox } from './server/start-sandbox.ts';
export { SandboxClock } from './state/clock.ts';
export type { DueWork } from './control/control-deps.ts';
export { CONTROL_ERROR_CODES, type ControlErrorCode } from './control/control-error.ts';
export { FAULT_KINDS, faultRulesProblems, type FaultRuleProblem } from './faults/fault-rules.ts';
export { SandboxStateFileError, SandboxStateIncompleteError } from './store/state-file-error.ts';
export { SandboxControlLockError } from './control/control-lock-error.ts';
// Every gw server's limits (@gw/types), under the names the sandbox's users import.
export { SERVER_LIMIT_DEFAULTS as SANDBOX_LIMIT_DEFAULTS, serverLimits, type ServerLimits } from '@gw/types';
export { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, type SandboxMerchant, type SandboxOptions } from './options/sandbox-options.ts';
export type { FaultKind, FaultRule, FaultRules, ThrottleFaultKind } from './faults/fault-plan.ts';
export {
  SandboxThrottleError,
  THROTTLE_LIMIT_BOUNDS,
  throttleSettingProblems,
  type ThrottleQuota,
  type ThrottleSetting,
  type ThrottleSettingProblem,
} from './throttle/setting.ts';
export type { AccountThrottleStats, ThrottleSecond, ThrottleStats } from './throttle/throttle.ts';
export type { AnswerDriftRule, AnswerDriftRules } from './drift/answer-drift.ts';
export type { NotifyOptions } from './notifications/notifier.ts';
export {
  SandboxState,
  type LedgerEntry,
  type NotificationAttempt,
  type NotificationDelivery,
  type OrderEvent,
  type OrderState,
  type ReceivedRequest,
  type SandboxOrder,
  type SandboxRefund,
  type SandboxSubscription,
} from './state/state.ts';
export { SANDBOX_PAYMENT_STATUS } from './state/payment-status.ts';
export { ORDER_ERRORS } from './refusals/refusal-codes.ts';
export {
  CHALLENGE_FAILED_RESULT,
  CHALLENGE_NEEDS_3DS_RESULT,
  CHALLENGE_ORDER_STATUS,
  DECLINE_CENTS,
  TEST_CARD_TABLE,
  TEST_CARDS,
  decideCardOutcome,
  testCardsMarkdown,
  type CardOutcome,
  type TestCardBehaviour,
  type TestCardRow,
} from './cards/test-cards.ts';
export { DEFAULT_REDIRECT_EXPIRY_MS, type SandboxDeps } from './lifecycle/deps.ts';
export type { SandboxNotify } from './operations/context.ts';
export { REDIRECT_RESULT_INFO, expireDuePayments, settleRedirectPayment, type RedirectDetail, type RedirectOutcome } from './lifecycle/redirect-payment.ts';
export { RedirectPaymentError, type RedirectPaymentErrorDetails } from './lifecycle/redirect-payment-error.ts';
export { RETURN_PARAMETERS, type ReturnResult } from './pages/return-parameters.ts';
export { sandboxReconciler, type SandboxReconcileInput } from './reconcile/sandbox-reconciler.ts';
