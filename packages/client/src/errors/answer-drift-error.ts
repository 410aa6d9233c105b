import { GW_ERROR_CODES, GwError, type OperationName, type ValidationProblem } from '@gw/types';
import { reconcileAdvice, type RequestIdentifiers } from '../request-identifiers.ts';

/** Context of an AnswerDriftError. */
export interface AnswerDriftErrorDetails {
  readonly operation: OperationName;
  /** Every way the answer differs from the spec (field, keyword, message; values are never quoted, card digits masked). */
  readonly problems: readonly ValidationProblem[];
  /**
   * `unknown` for money-moving operations: the gateway answered, so it may have applied the request; refusing its
   * answer does not undo that, so reconcile (never read this as "not applied"). Null for operations that move no money.
   */
  readonly outcome: 'unknown' | null;
  readonly identifiers: RequestIdentifiers | null;
}

/**
 * An answer that differs from the spec (a field of the wrong type, a member the spec does not list, …), refused under
 * the client's `answers: 'refuse'`: the same differences `gw proxy` reports as drift.
 */
export class AnswerDriftError extends GwError<AnswerDriftErrorDetails> {
  override readonly name = 'AnswerDriftError';

  constructor(options: { operation: OperationName; problems: readonly ValidationProblem[]; identifiers: RequestIdentifiers | null }) {
    const { operation, problems, identifiers } = options;
    const listed = problems
      .slice(0, 5)
      .map((p) => `${p.field || '(the answer)'} ${p.message}`)
      .join('; ');
    const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
    const tail = identifiers
      ? ` The request reached the gateway, so its outcome is unknown (it may have been applied): ${reconcileAdvice(operation, identifiers)}`
      : '';
    super(GW_ERROR_CODES.answerDrift, `${operation}: the answer differs from the spec (${listed}${more}); refused (answers: 'refuse').${tail}`, {
      operation,
      problems,
      outcome: identifiers ? 'unknown' : null,
      identifiers,
    });
  }
}
