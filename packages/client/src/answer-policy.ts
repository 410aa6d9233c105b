// What the client does with an answer that differs from the spec (UNKNOWNS U57): the rule is @gw/types'
// `responseProblems`, the one `gw proxy` reports as drift.
import { RecordValidator, type OperationName, type ValidationProblem } from '@gw/types';
import { AnswerDriftError } from './errors/answer-drift-error.ts';
import { emit, type AnswerDriftEvent, type ClientHooks } from './hooks.ts';
import { redactText } from './redact.ts';
import type { RequestIdentifiers } from './request-identifiers.ts';

/**
 * What the client does with an answer that differs from the spec: `refuse` (an AnswerDriftError; for a money-moving
 * call its outcome is unknown), `report` (the default: accepted, and `hooks.onAnswerDrift` called, or without that hook
 * one process warning per operation and place), or `accept` (accepted, nothing checked).
 */
export type AnswersOption = 'refuse' | 'report' | 'accept';

/** The answer policy when none is given (UNKNOWNS U57). */
export const DEFAULT_ANSWERS: AnswersOption = 'report';

/** Places warned about at most, per client: a drifting gateway cannot grow the set without bound. */
const MAX_WARNED = 1000;

/** A problem with any card-like digit run in its place or message masked: a member name may be a card number. */
function masked(problem: ValidationProblem): ValidationProblem {
  return { pointer: redactText(problem.pointer), field: redactText(problem.field), keyword: problem.keyword, message: redactText(problem.message) };
}

/** Checks decoded answers against the spec and applies the client's `answers` policy. */
export class AnswerPolicy {
  readonly #policy: AnswersOption;
  readonly #hooks: ClientHooks;
  readonly #validator = new RecordValidator();
  readonly #warned = new Set<string>();

  constructor(policy: AnswersOption, hooks: ClientHooks) {
    this.#policy = policy;
    this.#hooks = hooks;
  }

  /**
   * The AnswerDriftError to throw (under `refuse`), or null when the answer is accepted; reports the drift through
   * the hook (or a warning once per place) under `report` and `refuse`. `record` has the spec's field names.
   */
  check(operation: OperationName, record: Record<string, unknown>, attempt: number, identifiers: () => RequestIdentifiers | null): AnswerDriftError | null {
    if (this.#policy === 'accept') return null;
    const found = this.#validator.responseProblems(operation, record);
    if (found.length === 0) return null;
    const problems = found.map(masked);
    const refused = this.#policy === 'refuse';
    const ids = refused ? identifiers() : null;
    const event: AnswerDriftEvent = { operation, attempt, problems, policy: this.#policy, outcome: refused ? (ids ? 'unknown' : 'refused') : 'accepted' };
    if (this.#hooks.onAnswerDrift) emit(this.#hooks.onAnswerDrift, () => event);
    else if (!refused) this.#warnOnce(event);
    return refused ? new AnswerDriftError({ operation, problems, identifiers: ids }) : null;
  }

  /** One process warning per operation and place: accepted, but not silently. */
  #warnOnce(event: AnswerDriftEvent): void {
    const fresh = event.problems.filter((p) => {
      const key = `${event.operation}|${p.field}|${p.keyword}`;
      if (this.#warned.has(key) || this.#warned.size >= MAX_WARNED) return false;
      this.#warned.add(key);
      return true;
    });
    if (fresh.length === 0) return;
    const listed = fresh.map((p) => `${p.field || '(the answer)'} ${p.message}`).join('; ');
    process.emitWarning(
      `${event.operation}: the answer differs from the spec (${listed}); accepted (answers: 'report'). Pass hooks.onAnswerDrift to handle it, or answers: 'refuse' | 'accept'.`,
      { code: 'GW_ANSWER_DRIFT' },
    );
  }
}
