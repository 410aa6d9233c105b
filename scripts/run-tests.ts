// Runs every package's tests, on Node 24 and (published packages) again on Node 22, as one turbo queue (a package's
// Node 22 run waits for its Node 24 run: they share its scratch folders). One queue instead of a Node 22 pass then a
// Node 24 pass keeps both cores busy while a long task (the registry release, the PostgreSQL fleet) waits on its
// child processes.
import { runTestTasks } from './turbo-tests.ts';

runTestTasks(['test', 'test:node22']);
