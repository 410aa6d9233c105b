// Writes one benchmark's section of bench/RESULTS.md between its markers, leaving the other sections alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = join(import.meta.dirname, 'RESULTS.md');
const INTRO = `# Benchmark results

Each benchmark measures gw against the raw library or a peer side by side in one run on the same machine, and reports
the ratio: absolute times on shared machines are noise, ratios measured together are not. Regenerate a section with
\`pnpm bench\` (all) or \`cd bench && pnpm exec node --conditions=@gw/source run.ts <area>\`.
`;

/** Replaces (or appends) the section of `area` in bench/RESULTS.md. */
export function writeResultsSection(area: string, markdown: string): void {
  const start = `<!-- bench:${area}:start -->`;
  const end = `<!-- bench:${area}:end -->`;
  const section = `${start}\n## ${area}\n\n${markdown.trim()}\n${end}`;
  const current = existsSync(FILE) ? readFileSync(FILE, 'utf8') : INTRO;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next = from >= 0 && to > from ? current.slice(0, from) + section + current.slice(to + end.length) : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(FILE, next);
}

/** The middle value of `xs` (the mean of the two middle ones when their count is even); NaN when there is none. */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
