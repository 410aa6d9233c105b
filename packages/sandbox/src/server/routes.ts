// Which handler answers which path, and which variant of a path a record is (UNKNOWNS U34).
import { operations, specSchema, type OperationName, type OperationSpec } from '@gw/types';
import type { HandlerContext } from '../operations/context.ts';
import type { WireRecord } from '../wire/wire-record.ts';
import { answerExamples } from '../generated/answer-examples.gen.ts';
import { echoRecord } from '../operations/echo.ts';
import { fillFromSpec } from '../operations/fill-from-spec.ts';
import { runOrderBatch } from '../operations/orders.ts';
import { authoriseAlternative, authoriseCard, checkout } from '../operations/payments.ts';
import { payout } from '../operations/payout.ts';
import { specExampleAnswer } from '../operations/spec-example.ts';
import { query } from '../operations/query.ts';
import { cancelSubscription } from '../operations/subscriptions.ts';

/** An operation handler: the answer record, or null for a repeated order_no (HTTP 409). */
export type Handler = (record: WireRecord, ctx: HandlerContext) => WireRecord | null;

/** The operations the sandbox keeps state for. */
const STATEFUL = {
  authoriseCard,
  authoriseAlternative,
  checkout: (record, ctx) => checkout(record, ctx) as unknown as WireRecord | null,
  query,
  capture: (record, ctx) => runOrderBatch('capture', record, ctx),
  cancel: (record, ctx) => runOrderBatch('cancel', record, ctx),
  review: (record, ctx) => runOrderBatch('review', record, ctx),
  refund: (record, ctx) => runOrderBatch('refund', record, ctx),
  cancelSubscription,
  payout,
} satisfies Partial<Record<OperationName, Handler>>;

// A stateful handler's answer with the members no rule of it decides (a field added to the spec since) filled: the
// request's value, or the value the spec shows (UNKNOWNS U53). An HTML page's fields are the checkout catalogue's.
function withSpecValues(op: OperationSpec, handler: Handler): Handler {
  if (op.responseEncoding === 'html') return handler;
  const example = answerExamples[op.name as OperationName];
  const [response, request] = [specSchema.named(op.responseSchema), specSchema.named(op.requestSchema)];
  return (record, ctx) => {
    const answer = handler(record, ctx);
    return answer === null ? null : fillFromSpec(answer, { example, echo: echoRecord(response, record), request });
  };
}

/**
 * The handler of each operation of the spec: its stateful handler, or for an operation without one (a new operation
 * after `pnpm generate`) an answer built from the spec (UNKNOWNS U53), so the handler table is never edited by hand.
 */
export const HANDLERS: Readonly<Record<OperationName, Handler>> = Object.fromEntries(
  (Object.values(operations) as OperationSpec[]).map((op) => {
    const stateful = (STATEFUL as Partial<Record<string, Handler>>)[op.name];
    return [op.name, stateful ? withSpecValues(op, stateful) : (record: WireRecord) => specExampleAnswer(op, record)];
  }),
) as Record<OperationName, Handler>;
