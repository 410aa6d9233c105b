// Every test file: a pg client given a statement while it still runs another fails the file. node-postgres queues it
// today with a DeprecationWarning ("Calling client.query() when the client is already executing a query"); pg 9 will
// throw, so a ledger that does it would break on the upgrade.
import { afterAll, expect } from 'vitest';

const overlapping: string[] = [];
const onWarning = (warning: Error): void => {
  if (/already executing a query/.test(warning.message)) overlapping.push(warning.stack ?? warning.message);
};
process.on('warning', onWarning);
afterAll(() => {
  process.off('warning', onWarning);
  expect(overlapping, 'a pg client was given a statement while it still ran another').toEqual([]);
});
