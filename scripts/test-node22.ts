// `pnpm test:node22`: every published package's tests on Node 22 alone (test:all runs them inside scripts/run-tests.ts,
// interleaved with the Node 24 runs; `--only` leaves out the Node 24 runs turbo would otherwise run first). Installs Node 22
// once first, so the packages' runs do not race to install it.
import { spawnSync } from 'node:child_process';
import { ensureNode22, root } from './node22.ts';

ensureNode22();
const turbo = spawnSync('turbo', ['run', 'test:node22', '--only', '--concurrency=2', '--continue'], { cwd: root, stdio: 'inherit' });
const summary = spawnSync(process.execPath, ['scripts/test-summary.ts'], { cwd: root, stdio: 'inherit' });
process.exit(turbo.status !== 0 ? (turbo.status ?? 1) : (summary.status ?? 1));
