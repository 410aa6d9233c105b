// Checks answer-drift rules given as JSON (control API `PUT /sandbox/api/drift`): every problem at once.
import { operations, type OperationName } from '@gw/types';
import { answerCarriesTypes, type AnswerDriftRule, type AnswerDriftRules } from './answer-drift.ts';
import type { FaultRuleProblem } from '../faults/fault-rules.ts';

const OPERATION_NAMES: readonly string[] = Object.keys(operations);
const PATH_LISTS = ['drop', 'retype'] as const;
const MEMBERS = ['add', 'drop', 'retype', 'wrongSignature'];

function pathListProblems(value: unknown, where: string): FaultRuleProblem[] {
  if (Array.isArray(value) && value.every((p) => typeof p === 'string' && p.length > 0)) return [];
  return [{ path: where, message: 'must be an array of member paths (e.g. "capture_orders[].amount")' }];
}

function ruleProblems(rule: unknown, where: string): FaultRuleProblem[] {
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return [{ path: where, message: 'must be an object' }];
  const problems: FaultRuleProblem[] = [];
  for (const [name, value] of Object.entries(rule)) {
    if (name === 'add' && (!value || typeof value !== 'object' || Array.isArray(value)))
      problems.push({ path: `${where}.add`, message: 'must be an object of member path -> value' });
    else if ((PATH_LISTS as readonly string[]).includes(name)) problems.push(...pathListProblems(value, `${where}.${name}`));
    else if (name === 'wrongSignature' && typeof value !== 'boolean') problems.push({ path: `${where}.wrongSignature`, message: 'must be true or false' });
    else if (!MEMBERS.includes(name)) problems.push({ path: `${where}.${name}`, message: `is not a drift rule member (known: ${MEMBERS.join(', ')})` });
  }
  return problems;
}

/** A rule member the operation's answers cannot show: a retype in text-only answers, a wrong signature in unsigned ones. */
function unshowableProblems(operation: OperationName, rule: unknown, where: string): FaultRuleProblem[] {
  if (!rule || typeof rule !== 'object') return [];
  const problems: FaultRuleProblem[] = [];
  const op = operations[operation];
  if (Object.hasOwn(rule, 'add') && op.responseEncoding === 'html')
    problems.push({ path: `${where}.add`, message: `cannot show: the ${operation} page takes any further hidden field (additionalProperties)` });
  if (Object.hasOwn(rule, 'retype') && !answerCarriesTypes(operation))
    problems.push({ path: `${where}.retype`, message: `cannot show: ${operation} answers ${op.responseEncoding.toUpperCase()}, which carries text only` });
  if ((rule as AnswerDriftRule).wrongSignature === true && op.responseSignature === 'none')
    problems.push({ path: `${where}.wrongSignature`, message: `cannot show: ${operation} answers are not signed (x-gw-response-signature: none)` });
  return problems;
}

/** Every problem of a drift rule set `{ operation | '*': { add, drop, retype, wrongSignature } }` (empty when usable). */
export function driftRulesProblems(value: unknown): FaultRuleProblem[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [{ path: '', message: 'drift rules must be an object of operation name -> rule' }];
  const problems: FaultRuleProblem[] = [];
  for (const [operation, rule] of Object.entries(value)) {
    const where = JSON.stringify(operation);
    if (operation !== '*' && !OPERATION_NAMES.includes(operation))
      problems.push({ path: where, message: `is not an operation name or '*' (known: ${OPERATION_NAMES.join(', ')})` });
    problems.push(...ruleProblems(rule, where));
    if (OPERATION_NAMES.includes(operation)) problems.push(...unshowableProblems(operation as OperationName, rule, where));
  }
  return problems;
}

/** The rules as given, typed and frozen, once checked. */
export function asDriftRules(value: Record<string, AnswerDriftRule>): AnswerDriftRules {
  return Object.freeze({ ...value });
}
