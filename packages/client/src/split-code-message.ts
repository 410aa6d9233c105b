/** A `<code>:<message>` text split in two (`result_info`, `refund_message`, `return_message`). */
export interface CodeMessage {
  /** The text before the first `:`, or null when the text has no `:`. */
  readonly code: string | null;
  /** The text after the first `:`, or the whole text when it has no `:`. */
  readonly message: string;
  /** True when the code is made of zeros only (seed §7.2: "a code made of zeros followed by a success text"). */
  readonly success: boolean;
}

/** Splits a `<code>:<message>` text at its first `:`; a code of zeros only means success (UNKNOWNS U48). */
export function splitCodeMessage(text: string | null | undefined): CodeMessage {
  const value = text ?? '';
  const colon = value.indexOf(':');
  if (colon < 0) return { code: null, message: value, success: false };
  const code = value.slice(0, colon);
  return { code, message: value.slice(colon + 1), success: /^0+$/.test(code) };
}
