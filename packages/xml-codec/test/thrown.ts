// Test helpers: what a call threw, so a test can assert on the error itself.
import { DecodeError } from '../src/index.ts';

/** The error `run` throws; fails the test when it throws nothing. */
export function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/** The DecodeError `run` throws; rethrows anything else, fails the test when it throws nothing. */
export function decodeFailure(run: () => unknown): DecodeError {
  const error = thrown(run);
  if (error instanceof DecodeError) return error;
  throw error;
}
