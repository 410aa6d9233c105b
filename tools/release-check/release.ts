#!/usr/bin/env node
// `pnpm release`: build, refresh the API reports, version every @gw package from the pending changesets (a CHANGELOG.md
// each), keep the reports as the released ones, then publish to the registry the environment or .npmrc names
// (npm_config_registry, `registry=`). The build comes before the version step: nothing built depends on the version
// (the CLI reads its package.json at run time), so the build of the sources CI just tested is a turbo cache hit.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { root: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } } });
const root = values.root ?? join(import.meta.dirname, '../..');
const bin = (name: string): string => join(root, 'node_modules/.bin', name);

function step(title: string, command: string, args: string[]): void {
  console.log(`release: ${title}: ${[command.split('/').pop(), ...args].join(' ')}`);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  console.log(`release: ${title}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (result.status !== 0) {
    console.error(`release: ${title} failed (exit ${result.status ?? result.signal}); nothing after it ran`);
    process.exit(1);
  }
}

step('build', bin('turbo'), ['run', 'build', '--output-logs=errors-only']);
step('api reports', process.execPath, [join(import.meta.dirname, 'api/main.ts'), '--update', '--root', root]);
step('version', bin('changeset'), ['version']);
step('released api reports', process.execPath, [join(import.meta.dirname, 'api/main.ts'), '--snapshot', '--root', root]);
if (values['dry-run']) console.log('release: --dry-run, not publishing');
else step('publish', bin('changeset'), ['publish']);
