// Runs every package's tests, on Node 24 and (published packages) again on Node 22, as one queue two at a time, the
// longest chains first (scripts/test-queue.ts); a package's Node 22 run waits for its Node 24 run (they share its
// scratch folders).
import { runTestTasks } from './test-run.ts';

await runTestTasks({ node24: true, node22: true });
