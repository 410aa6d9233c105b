#!/usr/bin/env node
// pnpm api:update | api:check | api:snapshot — the public API reports (API Extractor) and the semver rule on top of
// them (tools/release-check/README.md).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pendingBumps, readPendingChangesets } from './changesets.ts';
import { type ApiChange, apiChange, COVERAGE_CAVEAT, describeChange, isCovered } from './coverage.ts';
import { diffReports } from './report-diff.ts';
import { ApiReportError, buildReports, readReport, reportPath, type ReportedPackage } from './report.ts';

/** The publishable packages under `root/packages` (not private). */
export function reportedPackages(root: string): ReportedPackage[] {
  return readdirSync(join(root, 'packages'))
    .map((dir) => join(root, 'packages', dir))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; private?: boolean } }))
    .filter(({ pkg }) => !pkg.private)
    .map(({ dir, pkg }) => ({ name: pkg.name, dir }));
}

/** Where the report of the last released version of a package is kept (written by `pnpm release`). */
export function releasedReportPath(pkg: ReportedPackage): string {
  return reportPath(pkg).replace(/\.api\.md$/, '.released.api.md');
}

function listed(lines: string[], limit = 12): string {
  if (lines.length === 0) return '    (none: only comments or imports differ)';
  return (
    lines
      .slice(0, limit)
      .map((line) => `    ${line}`)
      .join('\n') + (lines.length > limit ? `\n    … and ${lines.length - limit} more` : '')
  );
}

/** What `api:check` found: the problems that fail it, and every package's API change since its last release. */
export interface ApiCheck {
  readonly problems: string[];
  readonly changes: ApiChange[];
}

// The problem of a change no pending changeset covers: what the change is and the command that records it.
function uncovered(change: ApiChange): string {
  const why =
    change.needed === 'major'
      ? `removes or changes what the last release had:\n${listed(change.diff.removed)}`
      : `adds to the last release:\n${listed(change.diff.added)}`;
  const own = change.short.length > 0 ? change.short.map((c) => `${c.bump} in ${c.file}`).join(', ') : 'none';
  return `${change.name}: needs a ${change.needed} changeset naming it (pending for ${change.name}: ${own}); its API ${why}\n  add one with \`pnpm spec:changeset ${change.needed} "<what changed, for the CHANGELOG>" ${change.name}\``;
}

/**
 * Checks the workspace at `root`: reports that differ from the build are problems; so is an API change since the last
 * release (`api/*.released.api.md`) that no pending changeset naming its package with the bump it needs covers.
 */
export function checkApi(root: string): ApiCheck {
  const packages = reportedPackages(root);
  const reports = buildReports(packages);
  const changesets = readPendingChangesets(join(root, '.changeset'));
  const bumps = pendingBumps(
    join(root, '.changeset'),
    packages.map((p) => p.name),
  );
  const problems: string[] = [];
  const changes: ApiChange[] = [];
  for (const pkg of packages) {
    const current = reports.get(pkg.name)!;
    const kept = readReport(pkg);
    if (kept !== current) {
      const diff = diffReports(kept ?? '', current);
      problems.push(
        `${pkg.name}: the API differs from ${reportPath(pkg).slice(root.length + 1)}; run \`pnpm api:update\` and commit it\n  added:\n${listed(diff.added)}\n  removed:\n${listed(diff.removed)}`,
      );
    }
    const releasedPath = releasedReportPath(pkg);
    if (!existsSync(releasedPath)) continue; // nothing released yet: no baseline to break
    const change = apiChange(pkg.name, readFileSync(releasedPath, 'utf8'), current, changesets, bumps.get(pkg.name) ?? 'none');
    if (!change) continue;
    changes.push(change);
    if (!isCovered(change)) problems.push(uncovered(change));
  }
  return { problems, changes };
}

/** The problems `checkApi` finds. */
export function checkReports(root: string): string[] {
  return checkApi(root).problems;
}

/** Writes every package's report; returns the paths written. */
export function updateReports(root: string): string[] {
  const packages = reportedPackages(root);
  const reports = buildReports(packages);
  const written: string[] = [];
  for (const pkg of packages) {
    const path = reportPath(pkg);
    if (readReport(pkg) === reports.get(pkg.name)) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, reports.get(pkg.name)!);
    written.push(path);
  }
  return written;
}

/** Keeps each package's current report as the report of its released version (run by `pnpm release`). */
export function snapshotReleased(root: string): void {
  for (const pkg of reportedPackages(root)) if (existsSync(reportPath(pkg))) copyFileSync(reportPath(pkg), releasedReportPath(pkg));
}

/** The check's account of every API change since the last release: the bump each needs and the changesets covering it. */
export function changeSummary(changes: readonly ApiChange[]): string {
  if (changes.length === 0) return "api:check: no package's API differs from its last release";
  const caveat = changes.some((c) => c.needed !== 'none' && isCovered(c)) ? `\n${COVERAGE_CAVEAT}` : '';
  return `api:check: ${changes.length} package(s) differ from their last release (api/*.released.api.md); the bump each needs and the pending changesets naming it with that bump:\n${changes.map(describeChange).join('\n')}${caveat}`;
}

/** One command recording every uncovered change (the largest bump they need, every package named), or null. */
export function recordCommand(changes: readonly ApiChange[]): string | null {
  const uncovered = changes.filter((c) => !isCovered(c));
  if (uncovered.length === 0) return null;
  const bump = uncovered.some((c) => c.needed === 'major') ? 'major' : 'minor';
  return `pnpm spec:changeset ${bump} "<what changed, for the CHANGELOG>" ${uncovered.map((c) => c.name).join(' ')}`;
}

/** Runs `--update`, `--snapshot` or (the default) `--check` on the workspace at `root`. */
function runCommand(values: { update?: boolean; snapshot?: boolean; root?: string }): void {
  const root = resolve(values.root ?? join(import.meta.dirname, '../../..'));
  const started = performance.now();
  if (values.update) {
    const written = updateReports(root);
    console.log(
      `api:update: ${written.length} report(s) written${written.map((p) => `\n  ${p.slice(root.length + 1)}`).join('')} (${Math.round(performance.now() - started)} ms)`,
    );
  } else if (values.snapshot) {
    snapshotReleased(root);
    console.log('api:snapshot: the current reports are now the released ones (api/*.released.api.md)');
  } else {
    const { problems, changes } = checkApi(root);
    console.log(changeSummary(changes));
    if (problems.length > 0) {
      const record = recordCommand(changes);
      console.error(
        `api:check: ${problems.length} problem(s)\n${problems.join('\n')}${record ? `\napi:check: record the change(s) in one changeset naming every package they touch: ${record}` : ''}`,
      );
      process.exit(1);
    }
    console.log(`api:check: every API report matches the build and the pending changesets (${Math.round(performance.now() - started)} ms)`);
  }
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({
    options: { update: { type: 'boolean' }, check: { type: 'boolean' }, snapshot: { type: 'boolean' }, root: { type: 'string' } },
  });
  try {
    runCommand(values);
  } catch (error) {
    if (!(error instanceof ApiReportError)) throw error;
    console.error(`api: ${error.message}`);
    process.exit(1);
  }
}
