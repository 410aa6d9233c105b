// `pnpm test:node22`: every published package's tests on Node 22 alone (test:all runs them inside scripts/run-tests.ts,
// interleaved with the Node 24 runs; `--only` leaves out the Node 24 runs turbo would otherwise run first).
import { runTestTasks } from './turbo-tests.ts';

runTestTasks(['test:node22', '--only']);
