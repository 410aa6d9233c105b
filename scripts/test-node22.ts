// `pnpm test:node22`: every published package's tests on Node 22 alone (test:all runs them inside scripts/run-tests.ts,
// in the same queue as the Node 24 runs).
import { runTestTasks } from './test-run.ts';

await runTestTasks({ node24: false, node22: true });
