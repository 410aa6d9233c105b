import type { NotificationEvent } from '../envelope/event.ts';
import { NotificationRefusedError } from '../errors.ts';

/**
 * What happened to one delivery: `processed` (handler ran and finished, 200), `duplicate` (already handled, 200, not
 * run again), `in-progress` (another delivery of the same event is running, 409: retry later), `refused` (not trusted
 * or not readable, 400; the handler never ran), `failed` (the handler threw, 500: the sender retries).
 */
export type ReceiverOutcome = 'processed' | 'duplicate' | 'in-progress' | 'refused' | 'failed';

/** The HTTP answer for a delivery, and what the receiver saw. */
export interface ReceiverAnswer {
  readonly outcome: ReceiverOutcome;
  readonly status: number;
  /** A small JSON body: outcome, event id, and for a refusal its code and reason. Never the notification's body. */
  readonly body: string;
  readonly event?: NotificationEvent;
  readonly error?: unknown;
}

const STATUS: Record<ReceiverOutcome, number> = { processed: 200, duplicate: 200, 'in-progress': 409, refused: 400, failed: 500 };

/** The answer of an outcome. */
export function answerFor(outcome: ReceiverOutcome, event?: NotificationEvent, error?: unknown): ReceiverAnswer {
  const json: Record<string, unknown> = { outcome };
  if (event) json.id = event.id;
  if (error instanceof NotificationRefusedError) Object.assign(json, { code: error.code, reason: error.reason, message: error.message });
  else if (outcome === 'failed') json.message = 'the notification handler failed; retry later';
  // `event` and `error` only when there is one (no undefined members), set on the one object.
  const answer: { -readonly [K in keyof ReceiverAnswer]: ReceiverAnswer[K] } = { outcome, status: STATUS[outcome], body: JSON.stringify(json) };
  if (event) answer.event = event;
  if (error !== undefined) answer.error = error;
  return answer;
}
