import { GW_ERROR_CODES, type ValidationProblem } from '@gw/types';
import type { BatchOperation } from '../operation/batch-operations.ts';
import type { OrderOutcome } from '../outcome.ts';
import { provenNotSent } from '../proven-not-sent.ts';
import type { Settled } from './match-answers.ts';
import { messageOf, type PendingOrder } from './pending-order.ts';

function codeOf(error: unknown): string {
  return typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : '';
}

/**
 * The outcomes of a chunk whose call threw. Only an error that proves the request never left makes its orders
 * `failed` ("not sent") or `rejected`; a whole-request refusal the gateway answered makes them `failed`; everything
 * else, whatever threw, leaves them in doubt (null), to be settled by query.
 */
export function classifyFailure(operation: BatchOperation, chunk: readonly PendingOrder[], error: unknown): Settled[] {
  const code = codeOf(error);
  const details = (error as { details?: { outcome?: unknown; problems?: ValidationProblem[] } })?.details;
  const all = (make: (p: PendingOrder) => OrderOutcome | null) => chunk.map((pending) => ({ pending, outcome: make(pending) }));
  const failed = (reason: string) => all((p) => ({ index: p.index, kind: 'failed', order: p.order, reason }));
  // A query moves no money: a failed one is failed, and safe to run again.
  if (operation === 'query') return failed(`query failed: ${messageOf(error)}`);
  if (code === GW_ERROR_CODES.gateway && details?.outcome !== 'unknown') return failed(`refused as a whole: ${messageOf(error)}`);
  if (!provenNotSent(error)) return all(() => null);
  if (code === GW_ERROR_CODES.validation) {
    return all((p) => ({ index: p.index, kind: 'rejected', order: p.order, reason: messageOf(error), problems: details?.problems ?? [] }));
  }
  return failed(`not sent, safe to send again: ${messageOf(error)}`);
}
