export { DEFAULT_UPSTREAM_DEADLINE_MS, startProxy, type Proxy } from './start-proxy.ts';
export type { ProxyOptions } from './options.ts';
export type { CountRange, DriftEntry, DriftKind, DriftReport, DriftSide, OperationObservations, ThrottleObservations } from './report/report-types.ts';
export type { Exchange } from './check/exchange.ts';
export { proposeSpecPatch } from './patch/propose-spec-patch.ts';
export type { SkippedDrift, SpecChange, SpecPatch } from './patch/spec-patch-types.ts';
export { checkHar, type HarCheck, type HarCheckOptions } from './har/check-har.ts';
export { pathShape, redactReport } from './redact/report-redaction.ts';
