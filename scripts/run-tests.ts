// Runs every package's tests, on Node 24 and (published packages) again on Node 22, as one turbo run two tasks at a
// time, going on past a failing package (a package's Node 22 run waits for its Node 24 run: they share its scratch
// folders); then the summary, so the last lines of the log always name the counts and
// every failed test, whether or not a package failed. One queue instead of a Node 22 pass then a Node 24 pass keeps
// both cores busy while a long task (the registry release, the PostgreSQL fleet) waits on its child processes.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureNode22, root } from './node22.ts';

ensureNode22();
const turbo = spawnSync('turbo', ['run', 'test', 'test:node22', '--concurrency=2', '--continue'], { cwd: root, stdio: 'inherit', shell: false });
const summary = spawnSync(process.execPath, [join(root, 'scripts/test-summary.ts')], { cwd: root, stdio: 'inherit' });
process.exit(turbo.status !== 0 ? (turbo.status ?? 1) : (summary.status ?? 1));
