// Checks fault rules and one-shot faults given as JSON (control API, console, `gw sandbox --faults`): every problem at once.
import { operationsByPath } from '@gw/types';
import type { FaultKind, FaultRule, FaultRules, InjectableFaultKind } from './fault-plan.ts';

/** One problem of a fault rule set: where (`"/v1/capture".http5xx`) and what. */
export interface FaultRuleProblem {
  readonly path: string;
  readonly message: string;
}

const PROBABILITIES = ['resetBefore', 'resetAfter', 'http5xx', 'http429', 'duplicateNotification'] as const;
/** The kinds of fault that can be injected. */
export const FAULT_KINDS: readonly FaultKind[] = ['reset-before', 'reset-after', 'http-5xx', 'duplicate-notification'];
/** Those and the throttle's `http-429`: what the control API and the console inject. */
export const INJECTABLE_FAULT_KINDS: readonly InjectableFaultKind[] = ['reset-before', 'reset-after', 'http-5xx', 'http-429', 'duplicate-notification'];

function pathProblem(path: string, where: string): FaultRuleProblem | null {
  if (path === '*' || operationsByPath.has(path)) return null;
  return { path: where, message: `is not a /v1 operation path or '*' (known: ${[...operationsByPath.keys()].join(', ')})` };
}

function latencyProblems(value: unknown, where: string): FaultRuleProblem[] {
  const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 600_000;
  if (ok(value)) return [];
  if (Array.isArray(value) && value.length === 2 && ok(value[0]) && ok(value[1]) && value[0] <= value[1]) return [];
  return [{ path: where, message: 'must be milliseconds (0 to 600000) or a [min, max] pair' }];
}

function ruleProblems(rule: unknown, where: string): FaultRuleProblem[] {
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return [{ path: where, message: 'must be an object' }];
  const problems: FaultRuleProblem[] = [];
  let total = 0;
  for (const [name, value] of Object.entries(rule)) {
    if (name === 'latencyMs') problems.push(...latencyProblems(value, `${where}.latencyMs`));
    else if (name === 'retryAfterSeconds') {
      if (!(Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 86_400))
        problems.push({ path: `${where}.retryAfterSeconds`, message: 'must be whole seconds from 0 to 86400' });
    } else if ((PROBABILITIES as readonly string[]).includes(name)) {
      if (typeof value !== 'number' || !(value >= 0 && value <= 1)) problems.push({ path: `${where}.${name}`, message: 'must be a probability from 0 to 1' });
      else if (name !== 'duplicateNotification') total += value;
    } else
      problems.push({ path: `${where}.${name}`, message: `is not a fault rule member (known: latencyMs, ${PROBABILITIES.join(', ')}, retryAfterSeconds)` });
  }
  if (total > 1) problems.push({ path: where, message: 'resetBefore + http5xx + http429 + resetAfter must not exceed 1' });
  return problems;
}

/** Every problem of a fault rule set (empty when it can be used). */
export function faultRulesProblems(value: unknown): FaultRuleProblem[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [{ path: '', message: 'fault rules must be an object of path -> rule' }];
  const problems: FaultRuleProblem[] = [];
  for (const [path, rule] of Object.entries(value)) {
    const where = JSON.stringify(path);
    const bad = pathProblem(path, where);
    if (bad) problems.push(bad);
    problems.push(...ruleProblems(rule, where));
  }
  return problems;
}

/** A checked one-shot fault: path, kind, times. */
export interface InjectedFault {
  readonly path: string;
  readonly kind: InjectableFaultKind;
  readonly times: number;
}

/** Every problem of a one-shot fault request `{ path, kind, times? }`, and the fault when there is none. */
export function injectedFault(value: Record<string, unknown>): { fault: InjectedFault | null; problems: FaultRuleProblem[] } {
  const problems: FaultRuleProblem[] = [];
  const path = typeof value.path === 'string' ? value.path : '';
  if (path === '*' || !operationsByPath.has(path))
    problems.push({ path: '/path', message: `must be a /v1 operation path (known: ${[...operationsByPath.keys()].join(', ')})` });
  const kind = value.kind as InjectableFaultKind;
  if (!INJECTABLE_FAULT_KINDS.includes(kind)) problems.push({ path: '/kind', message: `must be one of ${INJECTABLE_FAULT_KINDS.join(', ')}` });
  const times = value.times === undefined ? 1 : value.times;
  if (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > 10_000)
    problems.push({ path: '/times', message: 'must be a whole number from 1 to 10000' });
  for (const name of Object.keys(value))
    if (!['path', 'kind', 'times'].includes(name)) problems.push({ path: `/${name}`, message: 'is not a member of a one-shot fault (path, kind, times)' });
  return { fault: problems.length === 0 ? { path, kind, times: times as number } : null, problems };
}

/** The rules as given, typed, once checked. */
export function asFaultRules(value: Record<string, FaultRule>): FaultRules {
  return Object.freeze({ ...value });
}
