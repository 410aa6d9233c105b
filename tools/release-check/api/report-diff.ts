// What changed between two API reports, line by line within each exported declaration.

/** The lines that a report gained and lost, each qualified by the declaration it belongs to. */
export interface ReportDiff {
  readonly added: string[];
  readonly removed: string[];
}

function body(report: string): string {
  const start = report.indexOf('```ts\n');
  const end = report.lastIndexOf('```');
  return start === -1 || end <= start ? '' : report.slice(start + 6, end);
}

// The lines of a declaration that are API: not API Extractor's comments (`// @public`, `// (undocumented)`, a
// forgotten-export warning), which change when a doc comment does, and not the imports, which follow the declarations.
function isApiLine(line: string): boolean {
  return line !== '' && line !== '}' && line !== '};' && !line.startsWith('//') && !line.startsWith('import ');
}

// `export interface CaptureOrder { :: amount?: string;` — a member line means nothing without its declaration.
function qualifiedLines(report: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const block of body(report).split(/\n\n+/)) {
    // A list's separator is no API: appending after a list's last item (a new type in `export { ..., Last }`) gives
    // the old last line a comma, which is not a removal.
    const lines = block
      .split('\n')
      .map((line) => line.trim().replace(/,$/, ''))
      .filter(isApiLine);
    const head = lines[0] ?? '';
    for (const line of lines) {
      const key = line === head ? line : `${head} :: ${line}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

function minus(a: Map<string, number>, b: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [line, count] of a) for (let i = b.get(line) ?? 0; i < count; i++) out.push(line);
  return out.sort();
}

/** Lines in `after` and not in `before` (added), and the reverse (removed): a changed line counts as both. */
export function diffReports(before: string, after: string): ReportDiff {
  const old = qualifiedLines(before);
  const now = qualifiedLines(after);
  return { added: minus(now, old), removed: minus(old, now) };
}

/** A semver bump. */
export type Bump = 'none' | 'patch' | 'minor' | 'major';
export const BUMP_ORDER: readonly Bump[] = ['none', 'patch', 'minor', 'major'];

/**
 * The smallest bump a diff needs: a removed or changed line (a removal or an incompatible change) needs major, lines
 * only added (a new export, member or optional field) need minor, no change needs none.
 */
export function requiredBump(diff: ReportDiff): Bump {
  if (diff.removed.length > 0) return 'major';
  if (diff.added.length > 0) return 'minor';
  return 'none';
}
