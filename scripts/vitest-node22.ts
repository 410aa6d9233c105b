// A package's `test:node22` script: its vitest suite again on Node 22, writing `.vitest-report.node22.json` beside the
// Node 24 report (scripts/test-summary.ts adds both up). Run from the package's folder, by turbo.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureNode22, root } from './node22.ts';

const node = ensureNode22();
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const run = spawnSync(node, [vitest, 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.vitest-report.node22.json'], {
  stdio: 'inherit',
  // The 10,000-order fault test already ran on Node 24; 2,000 prove the same on 22. (The property tests choose their
  // own smaller counts on Node 22: 100,000 inputs on Node 24, 5,000 on 22.)
  env: { ...process.env, GW_BATCH_FAULT_ORDERS: '2000' },
});
process.exit(run.status ?? 1);
