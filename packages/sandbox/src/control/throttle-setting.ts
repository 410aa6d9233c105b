// The throttle as the control API reads and sets it (`PUT /sandbox/api/throttle`): every problem at once.
import { throttleSettingProblems, type ThrottleSetting } from '../throttle/setting.ts';
import type { ControlDeps } from './control-deps.ts';
import { invalid } from './control-error.ts';

/** The setting a PUT carries: the body itself (`{ "ratePerSecond": 40 }`, `{}`), or its `throttle` (null: off) when that is all it holds. */
export function throttleSettingIn(body: Record<string, unknown>): ThrottleSetting | null {
  const value = 'throttle' in body && Object.keys(body).length === 1 ? body.throttle : body;
  const problems = throttleSettingProblems(value);
  if (problems.length > 0) throw invalid('bad throttle setting', problems);
  return value as ThrottleSetting | null;
}

/** `{ throttle }`: the quota in force, or null (off). */
export function throttleJson(deps: ControlDeps) {
  return { throttle: deps.throttle.quota };
}
