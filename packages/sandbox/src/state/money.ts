// Sandbox arithmetic on amounts is done in integer minor units (two decimals, UNKNOWNS U24): never a float.
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Minor units (hundredths) of a decimal string, or null when it is no decimal or has non-zero digits past two places. */
export function toMinorUnits(text: unknown): bigint | null {
  if (typeof text !== 'string') return null;
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (/[1-9]/.test(fraction.slice(2))) return null;
  return BigInt(match[1]!) * 100n + BigInt((fraction + '00').slice(0, 2));
}

/** The two-decimal text of an amount in minor units. */
export function fromMinorUnits(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const abs = minor < 0n ? -minor : minor;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}
