/** One change a spec patch proposes. */
export interface SpecChange {
  /** `new-field`: an optional member with the type seen; `known-value`: a value added to `x-gw-known-values`. */
  readonly kind: 'new-field' | 'known-value';
  /** The operation whose answers showed it. */
  readonly operation: string;
  /** The component schema changed (a shared one changes for every operation using it). */
  readonly schema: string;
  /** The field path in the operation's answer (`capture_orders[].settlement_window`). */
  readonly path: string;
  /** The JSON type given to a new field, or the value added. */
  readonly value: string;
}

/** A drift entry a patch leaves to a person, and why. */
export interface SkippedDrift {
  /** The drift entry's operation, side, kind and field path (`''` for the whole message). */
  readonly operation: string;
  readonly side: 'request' | 'response';
  readonly kind: string;
  readonly path: string;
  /** Why the patch leaves it to a person. */
  readonly reason: string;
}

/** A proposed copy of the spec: its text, what changed, and the drift it does not settle. */
export interface SpecPatch {
  /** The proposed spec: the original text with the changes inserted, everything else byte for byte. */
  readonly text: string;
  /** Each change made, in the order made. */
  readonly changes: readonly SpecChange[];
  /** The drift entries the patch does not settle. */
  readonly skipped: readonly SkippedDrift[];
}
