// The quota the sandbox keeps per merchant account (UNKNOWNS U50): the option `throttle`, `gw sandbox --rate-limit`
// and `--max-in-flight`, `PUT /sandbox/api/throttle`. Checked in one place, every problem at once.
import { GW_ERROR_CODES, GwError } from '@gw/types';

/** A quota per merchant account: either limit may be left out (or null); `{}` counts requests without limiting them. */
export interface ThrottleSetting {
  /** Requests accepted per merchant account in any 1000 ms (a sliding window), 1 to 1 000 000. */
  readonly ratePerSecond?: number | null;
  /** Requests of a merchant account accepted and not yet answered, 1 to 100 000. */
  readonly maxInFlight?: number | null;
}

/** The quota in force, both limits named (null: that limit is off). */
export interface ThrottleQuota {
  /** Requests accepted per merchant account in any 1000 ms, or null: no limit. */
  readonly ratePerSecond: number | null;
  /** Requests of a merchant account in flight at once, or null: no limit. */
  readonly maxInFlight: number | null;
}

/** One problem of a throttle setting: where (`ratePerSecond`) and what. */
export interface ThrottleSettingProblem {
  /** The member (`ratePerSecond`), or '' for the setting as a whole. */
  readonly path: string;
  /** What is wrong with it. */
  readonly message: string;
}

/** The bounds of each limit. */
export const THROTTLE_LIMIT_BOUNDS = Object.freeze({ ratePerSecond: 1_000_000, maxInFlight: 100_000 });

/** Every problem of a throttle setting (empty when it can be used); null turns the throttle off and has none. */
export function throttleSettingProblems(value: unknown): ThrottleSettingProblem[] {
  if (value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) return [{ path: '', message: 'must be an object { ratePerSecond?, maxInFlight? } or null' }];
  const problems: ThrottleSettingProblem[] = [];
  for (const [name, limit] of Object.entries(value)) {
    const max = (THROTTLE_LIMIT_BOUNDS as Record<string, number>)[name];
    if (max === undefined || !Object.hasOwn(THROTTLE_LIMIT_BOUNDS, name))
      problems.push({ path: name, message: 'is not a throttle member (known: ratePerSecond, maxInFlight)' });
    else if (limit !== null && limit !== undefined && !(Number.isInteger(limit) && (limit as number) >= 1 && (limit as number) <= max))
      problems.push({ path: name, message: `must be a whole number from 1 to ${max}, or null (no limit)` });
  }
  return problems;
}

/** A throttle setting the sandbox cannot use (option `throttle`, `sandbox.throttle.set`): every problem at once. */
export class SandboxThrottleError extends GwError<{ problems: readonly ThrottleSettingProblem[] }> {
  override readonly name = 'SandboxThrottleError';

  constructor(problems: readonly ThrottleSettingProblem[]) {
    super(GW_ERROR_CODES.config, `bad throttle setting: ${problems.map((p) => `${p.path || '(the setting)'} ${p.message}`).join('; ')}`, { problems });
  }
}

/** The quota of a setting, checked (SandboxThrottleError listing every problem); null or undefined: off. */
export function throttleQuota(setting: ThrottleSetting | null | undefined): ThrottleQuota | null {
  if (setting === null || setting === undefined) return null;
  const problems = throttleSettingProblems(setting);
  if (problems.length > 0) throw new SandboxThrottleError(problems);
  return Object.freeze({ ratePerSecond: setting.ratePerSecond ?? null, maxInFlight: setting.maxInFlight ?? null });
}
