export { createClient, type GwClient, type RequestInput } from './create-client.ts';
export type { OperationMethods } from './generated/methods.gen.ts';
export type { ClientOptions, UnknownFieldsOption } from './client-options.ts';
export type { CallOptions, CheckoutResult } from './call-operation.ts';
export type { Guarded, GuardedCall } from './guarded-call.ts';
export type { TransportOptions } from './transport.ts';
export { DEFAULT_RETRY, type RetryOptions } from './retry.ts';
export type { AnswerDriftEvent, ClientHooks, ErrorEvent, RequestEvent, ResponseEvent } from './hooks.ts';
export { DEFAULT_ANSWERS, type AnswersOption } from './answer-policy.ts';
export { AnswerDriftError, type AnswerDriftErrorDetails } from './errors/answer-drift-error.ts';
export { defaultQuerySelection, type QueryInput, type QuerySelectionBuilder, type QuerySelectionValues } from './query-selection.ts';
export { exactNumber } from './exact-numbers.ts';
export { splitCodeMessage, type CodeMessage } from './split-code-message.ts';
export { REDACTED, isSecretField, redactRecord, redactText } from './redact.ts';
export { checkResponseSignature, type ResponseSignatureCheck } from './verify-response.ts';
export type { RequestIdentifiers } from './request-identifiers.ts';
export { GatewayError, type GatewayErrorDetails } from './errors/gateway-error.ts';
export { HttpError, type HttpErrorDetails } from './errors/http-error.ts';
export { SignatureError, type SignatureErrorDetails, type SignatureFailure } from './errors/signature-error.ts';
export { TimeoutError, type TimeoutErrorDetails } from './errors/timeout-error.ts';
export { ConnectionError, type ConnectionErrorDetails } from './errors/connection-error.ts';
export { OutcomeUnknownError, type OutcomeUnknownErrorDetails, type OutcomeUnknownReason } from './errors/outcome-unknown-error.ts';
export { ConfigError, type ConfigErrorDetails, type ConfigProblem } from './errors/config-error.ts';
export { ReturnParametersError, type ReturnParametersErrorDetails, type ReturnParametersFailure } from './errors/return-parameters-error.ts';
export {
  RETURN_PARAMETERS,
  verifyReturnParameters,
  type ReturnOperation,
  type ReturnParameters,
  type VerifyReturnOptions,
} from './verify-return-parameters.ts';
export { NotSentError, type NotSentErrorDetails, type NotSentStage } from './errors/not-sent-error.ts';
export { retryAfterMs, ThrottledError, type ThrottledErrorDetails, type ThrottledMeaning } from './errors/throttled-error.ts';
export { DecodeError, type DecodeErrorDetails, type DecodeFailure } from '@gw/xml-codec';
export { GW_ERROR_CODES, GwError, isGwError, ValidationError, type GwErrorCode, type ValidationProblem } from '@gw/types';
export type { TelemetryOption, TelemetryOptions } from './telemetry/telemetry-options.ts';
export type { GwOutcome } from './telemetry/attempt-outcome.ts';
