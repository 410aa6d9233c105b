// The median the benches report: of rounds, of per-round ratios.

/** The middle value of `xs` (the mean of the two middle ones when their count is even); NaN when there is none. */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
