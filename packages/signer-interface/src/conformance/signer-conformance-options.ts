import type { Signer } from '../signer.ts';
import type { Verifier } from '../verifier.ts';

/** What the conformance kit checks: a team's signer and verifier (often the same object). */
export interface SignerConformanceOptions {
  readonly signer: Signer;
  readonly verifier: Verifier;
  /** The name of the vitest `describe` block; default `Signer conformance`. */
  readonly name?: string;
  /** The same algorithm built with a different secret; without it the `other-secret` check is skipped. */
  readonly signerWithOtherSecret?: Signer;
  /**
   * Which field paths the algorithm covers, for algorithms that sign chosen fields only (default: every field).
   * Tamper checks leave the others out; a change to a field the algorithm does not cover cannot be detected.
   */
  readonly signedFields?: (path: string) => boolean;
}
