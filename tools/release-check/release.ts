#!/usr/bin/env node
// `pnpm release`: first the checks that guard the version number (the generated files match the spec, everything
// builds, the API reports match the build and the pending changesets bump enough, everything type-checks, the
// spec-contract tests pass); any failure stops here, before anything is versioned. Then version every @gw package from the pending
// changesets (a CHANGELOG.md each), keep the reports as the released ones, and publish to the registry the environment
// or .npmrc names (npm_config_registry, `registry=`). Nothing built depends on the version (the CLI reads its
// package.json at run time), so the build of the sources CI just tested is a turbo cache hit. `--dry-run` runs the same
// checks, then versions a scratch copy of the tree instead (dry-run.ts), prints the plan and leaves the tree as it was.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { reportedPackages } from './api/main.ts';
import { DryRunError, formatPlan, planRelease } from './dry-run.ts';

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    tests: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(
    [
      'usage: pnpm release [--tests <package>]... [--tests all|none] [--dry-run]',
      '  checks (each must pass, else nothing is versioned): generate --check, build, api:check, typecheck, tests',
      "  --tests   the packages whose tests run before versioning (default @gw/types: every operation's examples",
      "            valid against its schemas, the seed's limits); `all` runs every package's tests, `none` none",
      '  --dry-run the same checks, then print what the release would version, write and publish (each package, its',
      '            version now → next, the bump, the changesets behind it; the files), worked out in a scratch copy',
      '            that is removed: the tree is left as it was',
    ].join('\n'),
  );
  process.exit(0);
}
const root = values.root ?? join(import.meta.dirname, '../..');
const bin = (name: string): string => join(root, 'node_modules/.bin', name);
const tests = values.tests ?? ['@gw/types'];

/** Runs one step; on failure says what failed and whether anything was versioned, then exits. */
function step(title: string, command: string, args: string[], versioned: boolean): void {
  console.log(`release: ${title}: ${[command.split('/').pop(), ...args].join(' ')}`);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  console.log(`release: ${title}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (result.status === 0) return;
  const exit = result.status ?? result.signal;
  if (!versioned)
    console.error(
      `release: refused: ${title} failed (exit ${exit}), so nothing was versioned or published. Fix what it names above, then run \`pnpm release\` again.`,
    );
  else
    console.error(
      `release: ${title} failed (exit ${exit}) after versioning; nothing after it ran. The versions and CHANGELOGs are written: commit them, fix the failure, then run \`pnpm changeset publish\`.`,
    );
  process.exit(1);
}

const codegen = join(root, 'tools/codegen/src/main.ts');
const api = join(import.meta.dirname, 'api/main.ts');
// The cheap and decisive checks first: a refusal for a missing changeset comes before the typecheck and the tests.
step('generated files match the spec', process.execPath, [codegen, '--check'], false);
step('build', bin('turbo'), ['run', 'build', '--output-logs=errors-only'], false);
step('api reports and changesets', process.execPath, [api, '--check', '--root', root], false);
step('typecheck', bin('turbo'), ['run', 'typecheck', '--output-logs=errors-only'], false);
if (tests.includes('none')) console.log('release: tests: --tests none, skipped');
else
  step('tests', bin('turbo'), ['run', 'test', '--output-logs=errors-only', ...(tests.includes('all') ? [] : tests.map((name) => `--filter=${name}`))], false);
// With no pending changeset the committed versions are what is released (a release commit made by hand, as 1.0.0 was):
// changesets' own `version` would refuse, so it is skipped and publish sends what is not on the registry yet.
const pending = readdirSync(join(root, '.changeset')).filter((name) => name.endsWith('.md') && name !== 'README.md');
if (values['dry-run']) dryRun(pending.length > 0);
if (pending.length === 0) console.log('release: no pending changeset: publishing the committed versions');
else {
  step('version', bin('changeset'), ['version'], false);
  step('released api reports', process.execPath, [api, '--snapshot', '--root', root], true);
}
step('publish', bin('changeset'), ['publish'], true);

/** The registry `changeset publish` would publish to, as npm reads it in `root` (.npmrc, npm_config_registry). */
function registry(): string {
  const result = spawnSync('npm', ['config', 'get', 'registry'], { cwd: root, encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() !== '' ? result.stdout.trim() : 'the registry .npmrc or npm_config_registry names';
}

/** Prints what the release would version, write and publish, leaving the tree as it was; then exits. */
function dryRun(versions: boolean): never {
  if (!versions) {
    const published = reportedPackages(root).map(
      (p) => `${p.name}@${(JSON.parse(readFileSync(join(p.dir, 'package.json'), 'utf8')) as { version: string }).version}`,
    );
    console.log(
      `release: --dry-run: no pending changeset: nothing would be versioned or written; \`changeset publish\` would publish the committed versions not on the registry yet (${published.join(', ')}) to ${registry()}`,
    );
    process.exit(0);
  }
  const started = performance.now();
  try {
    console.log(formatPlan(planRelease(root), registry()));
  } catch (error) {
    if (!(error instanceof DryRunError)) throw error;
    console.error(`release: --dry-run: ${error.message}\nrelease: --dry-run: the scratch copy is removed; this tree is as it was`);
    process.exit(1);
  }
  console.log(`release: dry run: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exit(0);
}
