export type * from './generated/types.gen.ts';
export { operations, secretFields, type OperationName, type OperationRecords } from './generated/operations.gen.ts';
export { checkoutForm, querySelection, xmlRequestRoot } from './generated/wire-defaults.gen.ts';
export { specManifest } from './generated/manifest.gen.ts';
export type { SpecManifest } from './spec-manifest.ts';
export { specSchemas } from './generated/spec-schemas.gen.ts';
export { typeSchemas } from './generated/type-schemas.gen.ts';
export type { BatchSpec, OperationSpec, RefusalSpec, RequestEncoding, ResponseEncoding, ResponseSignature, RetryClass } from './operation-spec.ts';
export { GW_ERROR_CODES, GwError, isGwError, type GwErrorCode } from './errors.ts';
export { ValidationError, type ValidationProblem } from './validation-error.ts';
export { RecordValidator, pointerToField, type ValidateOptions } from './validate.ts';
export { MAX_RECORD_DEPTH, type UnknownFieldPolicy } from './field-problems.ts';
export { closestName } from './closest-name.ts';
export { fieldWords } from './field-words.ts';
export { batchElementFields } from './batch-element-fields.ts';
export { copyRecordGraph, type FillCopy } from './copy-record-graph.ts';
export {
  cardDataAliases,
  isCardDataField,
  namesCardData,
  withoutCardData,
  type CardDataMember,
  type CardDataReplacement,
  type WithoutCardData,
} from './card-data.ts';
export { textOf } from './member-text.ts';
export { setMember } from './set-member.ts';
export { optionalPeer } from './optional-peer.ts';
export { expandSchemaNodes, SchemaWalker, type SchemaNode, type SchemaNodeReader } from './schema/schema-walker.ts';
export { operationsByPath, specSchema, variantOf } from './schema/spec-schema.ts';
export {
  lazyTelemetryGate,
  parseTraceparent,
  serverAttributes,
  telemetryGate,
  type TelemetryGate,
  type TelemetryNow,
  type TelemetryScope,
  type TraceParent,
} from './telemetry-gate.ts';
export { DEFAULT_CALL_TIMEOUT_MS, SERVER_LIMIT_DEFAULTS, serverLimits, type ServerLimitOptions, type ServerLimits } from './http/server-limits.ts';
