import { isGwError } from '@gw/types';
import { NotAdmittedError } from '../errors.ts';
import type { Pacer } from '../runner/pacer.ts';
import type { BatchTransport } from './batch-transport.ts';

/** The Retry-After of a throttle the client reports (`ThrottledError`, code GW_THROTTLED), or undefined when `error` is none. */
export function throttleOf(error: unknown): { readonly retryAfterMs: number | null; readonly outcome: unknown } | undefined {
  if (!isGwError(error) || error.code !== 'GW_THROTTLED') return undefined;
  const details = error.details as { retryAfterMs?: unknown; outcome?: unknown };
  return { retryAfterMs: typeof details.retryAfterMs === 'number' ? details.retryAfterMs : null, outcome: details.outcome };
}

/**
 * The transport, paced: each request waits for the pacer (a pause the gateway asked for, the batch's rate and
 * in-flight limits, the rate learnt from throttles), and what comes back tells it (an answer, or a throttle to wait out);
 * `onThrottle` hears each throttle (the batch's telemetry).
 */
export function pacedTransport(
  inner: BatchTransport,
  pacer: Pacer,
  signal: AbortSignal | undefined,
  onThrottle?: (retryAfterMs: number | null) => void,
): BatchTransport {
  const paced = async <T>(request: () => Promise<T>): Promise<T> => {
    let done: () => void;
    try {
      done = await pacer.admit(signal);
    } catch (error) {
      throw new NotAdmittedError('the batch stopped before this request could go', { cause: error });
    }
    try {
      const answer = await request();
      pacer.answered();
      return answer;
    } catch (error) {
      const throttle = throttleOf(error);
      if (throttle) {
        pacer.throttled(throttle.retryAfterMs);
        // Heard once the pacer has taken it in: the pace after it is known.
        onThrottle?.(throttle.retryAfterMs);
      }
      throw error;
    } finally {
      done();
    }
  };
  return {
    send: (operation, orders, guard) => paced(() => inner.send(operation, orders, guard)),
    query: (selection) => paced(() => inner.query(selection)),
  };
}
