// UNKNOWNS U53: the answer of an operation the sandbox has no stateful handler for, built from the spec alone.
import { specSchema, type OperationName, type OperationSpec } from '@gw/types';
import type { WireRecord } from '../wire/wire-record.ts';
import { answerExamples } from '../generated/answer-examples.gen.ts';
import { echoRecord } from './echo.ts';
import { fillFromSpec } from './fill-from-spec.ts';

/**
 * The answer to an operation the sandbox keeps no state for (UNKNOWNS U53): the members of its response schema the
 * request carries too, echoed (§2.6; card data never is), then everything else from the operation's answer as the
 * spec shows it (the generated `answerExamples`: its example file, then the members' examples and formats). The
 * sandbox signs it like every other answer.
 */
export function specExampleAnswer(op: OperationSpec, request: WireRecord): WireRecord {
  return fillFromSpec({}, { example: answerExamples[op.name as OperationName], echo: echoRecord(specSchema.named(op.responseSchema), request) });
}
