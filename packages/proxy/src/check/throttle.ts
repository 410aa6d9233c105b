import { retryAfterMs } from '@gw/client';
import type { Exchange } from './exchange.ts';

/** An answer that said "slow down", and the wait it asked for. */
export interface Throttle {
  readonly status: number;
  /** The wait read from `Retry-After` in ms; `absent` when there was none, `unreadable` when neither seconds nor a date. */
  readonly retryAfter: { readonly ms: number } | 'absent' | 'unreadable';
}

/**
 * The throttle an answer is by the client's rule (UNKNOWNS U50): HTTP 429, or 503 with a `Retry-After`; null for any
 * other answer. The wait is read by the client's own parser, a date counted from when the answer came.
 */
export function throttleOf(exchange: Exchange, answeredAt: number): Throttle | null {
  const { status, retryAfter: header } = exchange;
  if (status !== 429 && !(status === 503 && header !== undefined)) return null;
  if (header === undefined) return { status, retryAfter: 'absent' };
  const ms = retryAfterMs(header, answeredAt);
  return { status, retryAfter: ms === null ? 'unreadable' : { ms } };
}
