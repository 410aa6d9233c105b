// The bump a package's API change since its last release needs, and the pending changesets that cover it: those that
// name the package with at least that bump. A fixed group versions every member with the group's largest bump, but a
// changeset naming only other packages was written for their changes and puts nothing in this package's CHANGELOG, so
// it does not cover this one. Whether a covering changeset was written for this change or for another of the same
// package cannot be told from the files: the check names the bump and the changesets so a person can see it.
import { atLeast, type PendingChangeset } from './changesets.ts';
import { type Bump, diffReports, type ReportDiff, requiredBump } from './report-diff.ts';

/** A pending changeset as it concerns one package: its file and the bump it gives that package. */
export interface NamedBump {
  readonly file: string;
  readonly bump: Bump;
}

/** A package whose API report differs from its released one. */
export interface ApiChange {
  readonly name: string;
  /** The smallest bump the change needs: major (removed or changed lines), minor (added lines), none (comments only). */
  readonly needed: Bump;
  readonly diff: ReportDiff;
  /** The pending changesets naming the package with at least `needed`. */
  readonly covering: readonly NamedBump[];
  /** The pending changesets naming the package with less than `needed`. */
  readonly short: readonly NamedBump[];
  /** The bump the package gets from all pending changesets, its fixed group's included. */
  readonly versionedWith: Bump;
}

/** The change between a package's released and current reports, or null when they are the same text. */
export function apiChange(name: string, released: string, current: string, changesets: readonly PendingChangeset[], versionedWith: Bump): ApiChange | null {
  if (released === current) return null;
  const diff = diffReports(released, current);
  const needed = requiredBump(diff);
  const own = changesets.filter((c) => c.bumps.has(name)).map((c) => ({ file: c.file, bump: c.bumps.get(name)! }));
  const covers = (c: NamedBump): boolean => needed !== 'none' && atLeast(c.bump, needed);
  return { name, needed, diff, covering: own.filter(covers), short: own.filter((c) => !covers(c)), versionedWith };
}

/** Said under the changes when any is covered: what the check cannot tell. */
export const COVERAGE_CAVEAT =
  'A covering changeset names the package with the bump, but it may have been written for another change of the same package: the files cannot tell, so read them before releasing.';

/** Whether the change needs no bump or a pending changeset covers it. */
export function isCovered(change: ApiChange): boolean {
  return change.needed === 'none' || change.covering.length > 0;
}

const named = (list: readonly NamedBump[]): string => list.map((c) => `${c.file} (${c.bump})`).join(', ');

function what(change: ApiChange): string {
  const { added, removed } = change.diff;
  if (change.needed === 'none') return 'only doc comments or imports differ';
  if (change.needed === 'major') return `removes or changes ${removed.length} line(s) of the last release${added.length > 0 ? `, adds ${added.length}` : ''}`;
  return `adds ${added.length} line(s) to the last release`;
}

/** One paragraph for the check's output: the bump needed, what needs it, and the changesets covering it or why none does. */
export function describeChange(change: ApiChange): string {
  const head = `  ${change.name}: needs ${change.needed} (${what(change)})`;
  if (change.needed === 'none') return `${head}; no changeset needed`;
  if (isCovered(change)) {
    return `${head}\n    covered by ${named(change.covering)}`;
  }
  const own = change.short.length > 0 ? `naming it only with less: ${named(change.short)}` : 'naming it: none';
  const group = atLeast(change.versionedWith, change.needed)
    ? `; its fixed group is bumped ${change.versionedWith} by changesets naming other packages, written for their changes`
    : '';
  return `${head}\n    NOT covered: no pending changeset names ${change.name} with ${change.needed} or more (${own}${group})`;
}
