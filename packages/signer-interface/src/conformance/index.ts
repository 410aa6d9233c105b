export { runSignerConformance } from './run-signer-conformance.ts';
export { checkSignerConformance, type CheckSignerConformanceOptions } from './check-signer-conformance.ts';
export type { SignerConformanceOptions } from './signer-conformance-options.ts';
export { SIGNER_CONFORMANCE_CHECK_IDS, type SignerConformanceCheckId, type SignerConformanceFailure } from './signer-conformance-failure.ts';
