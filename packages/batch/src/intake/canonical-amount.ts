// The spec's DecimalAmount (spec/v1/openapi.yaml): ASCII digits, optionally a dot and more digits; no sign, exponent,
// grouping or space. `\d` without the `u` flag is [0-9] only.
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const ZERO = 48;

/**
 * The canonical text of a decimal amount, or null when `value` is no decimal (not a string, or not matching the
 * spec's `^\d+(\.\d+)?$`): the integer part without leading zeros, the fraction without trailing zeros (and no dot when
 * none is left), so `3`, `3.0`, `3.00` and `03.000` are all `3`, and `0.50` is `0.5`. Two amounts have the same
 * canonical text exactly when they are the same decimal value. No currency exponent is applied: the spec has no
 * per-currency scale (UNKNOWNS U07: two decimals in every currency) and batch amounts no fixed scale (U24), so "the same
 * amount" is exact decimal equality (`3.001` stays apart from `3`; the gateway decides what it accepts). Only for
 * comparison: the text an order gives is what goes on the wire. Never parses a float, never throws; linear in the text.
 */
export function canonicalAmount(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = DECIMAL.exec(value);
  if (!match) return null;
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  let start = 0;
  while (start < whole.length - 1 && whole.charCodeAt(start) === ZERO) start++;
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === ZERO) end--;
  const integer = start === 0 ? whole : whole.slice(start);
  return end === 0 ? integer : `${integer}.${fraction.slice(0, end)}`;
}
