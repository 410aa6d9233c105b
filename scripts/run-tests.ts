// Runs every package's tests (turbo, two at a time, going on past a failing package) and then the summary, so the last
// lines of the log always name the counts and every failed test, whether or not a package failed.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const turbo = spawnSync('turbo', ['run', 'test', '--concurrency=2', '--continue'], { cwd: root, stdio: 'inherit', shell: false });
const summary = spawnSync(process.execPath, [join(root, 'scripts/test-summary.ts')], { cwd: root, stdio: 'inherit' });
process.exit(turbo.status !== 0 ? (turbo.status ?? 1) : (summary.status ?? 1));
