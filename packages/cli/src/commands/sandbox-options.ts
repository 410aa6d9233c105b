// `gw sandbox` flags -> startSandbox options: every problem of every flag found at once (exit 2).
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute, join } from 'node:path';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { faultRulesProblems, THROTTLE_LIMIT_BOUNDS, type FaultRules, type SandboxMerchant, type SandboxOptions, type ThrottleSetting } from '@gw/sandbox';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { CliIo } from '../io.ts';
import { envFlagValue } from '../env-flag.ts';
import { serverLimitsFromFlags, wholeFlag as whole, type ServerLimitFlags } from './server-limit-flags.ts';

/** The flags as commander gives them (all text). */
export interface SandboxFlags extends ServerLimitFlags {
  readonly port: string;
  readonly host: string;
  /** `--allowed-host`, repeatable. */
  readonly allowedHost?: readonly string[];
  readonly seed: string;
  readonly faults?: string;
  readonly latency?: string;
  readonly secret?: string;
  readonly secretEnv?: string;
  readonly merchants?: string;
  readonly notifyAttempts?: string;
  readonly notifyBaseDelayMs?: string;
  readonly maxBodyBytes?: string;
  readonly unknownFields?: string;
  readonly state?: string;
  readonly redirectExpiry?: string;
  readonly control: boolean;
  readonly controlTokenEnv?: string;
  /** `--rate-limit 40/s` (or `40`). */
  readonly rateLimit?: string;
  readonly maxInFlight?: string;
}

/** The options, and whether the signer secret is the sandbox's default one (for the banner; the secret is never printed). */
export interface ResolvedSandboxFlags {
  readonly options: SandboxOptions;
  readonly customSecret: boolean;
}

type Problems = string[];

function readJson(problems: Problems, flag: string, text: string, cwd: string): unknown {
  const inline = /^\s*[[{]/.test(text);
  const path = isAbsolute(text) ? text : join(cwd, text);
  if (!inline && !existsSync(path)) {
    problems.push(`${flag} ${text}: no such file (give a JSON file or inline JSON)`);
    return undefined;
  }
  try {
    return JSON.parse(inline ? text : readFileSync(path, 'utf8'));
  } catch (error) {
    problems.push(`${flag} ${inline ? '(inline JSON)' : text}: not valid JSON (${(error as Error).message})`);
    return undefined;
  }
}

function latency(problems: Problems, text: string | undefined): number | [number, number] | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)(?:-(\d+))?$/.exec(text);
  if (!m || (m[2] !== undefined && Number(m[2]) < Number(m[1]))) {
    problems.push(`--latency ${JSON.stringify(text)} must be milliseconds (e.g. 50) or a range (e.g. 20-80)`);
    return undefined;
  }
  return m[2] === undefined ? Number(m[1]) : [Number(m[1]), Number(m[2])];
}

const DURATION_UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--redirect-expiry`: milliseconds (`90000`) or a duration (`90s`, `30m`, `2h`, `1d`), from 1 ms to 30 days. */
function duration(problems: Problems, flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  const ms = m ? Number(m[1]) * DURATION_UNIT_MS[m[2] ?? 'ms']! : NaN;
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > 30 * 86_400_000) {
    problems.push(`${flag} ${JSON.stringify(text)} must be milliseconds (e.g. 90000) or a duration such as 90s, 30m, 2h, 1d (at most 30 days)`);
    return undefined;
  }
  return ms;
}

function faults(problems: Problems, flags: SandboxFlags, cwd: string): FaultRules | undefined {
  let rules: Record<string, Record<string, unknown>> = {};
  if (flags.faults !== undefined) {
    const value = readJson(problems, '--faults', flags.faults, cwd);
    const found = value === undefined ? [] : faultRulesProblems(value);
    problems.push(...found.map((p) => `--faults: ${p.path} ${p.message}`));
    if (value !== undefined && found.length === 0) rules = value as typeof rules;
  }
  const latencyMs = latency(problems, flags.latency);
  if (latencyMs !== undefined) rules = { ...rules, '*': { ...rules['*'], latencyMs } };
  return Object.keys(rules).length > 0 ? (rules as FaultRules) : undefined;
}

function merchants(problems: Problems, file: string | undefined, cwd: string): SandboxMerchant[] | undefined {
  if (file === undefined) return undefined;
  const value = readJson(problems, '--merchants', file, cwd);
  if (value === undefined) return undefined;
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((m) => m && typeof m.merchantId === 'string' && m.merchantId && typeof m.accountId === 'string' && m.accountId);
  if (!ok) problems.push(`--merchants ${file}: must be a non-empty JSON array of { "merchantId": "...", "accountId": "..." }`);
  return ok ? (value as SandboxMerchant[]).map((m) => ({ merchantId: m.merchantId, accountId: m.accountId })) : undefined;
}

function secret(problems: Problems, flags: SandboxFlags, io: CliIo): string | undefined {
  if (flags.secret !== undefined && flags.secretEnv !== undefined) problems.push('--secret and --secret-env: give one of them');
  if (flags.secretEnv !== undefined) {
    const read = envFlagValue(io.env, '--secret-env', flags.secretEnv);
    if ('problem' in read) problems.push(read.problem);
    return 'value' in read ? read.value : undefined;
  }
  if (flags.secret === '') problems.push('--secret: must not be empty');
  return flags.secret || undefined;
}

/** `--control-token-env NAME`: the control token, read from that environment variable (never from the command line). */
function controlToken(problems: Problems, flags: SandboxFlags, io: CliIo): string | undefined {
  if (flags.controlTokenEnv === undefined) return undefined;
  const read = envFlagValue(io.env, '--control-token-env', flags.controlTokenEnv);
  if ('problem' in read) problems.push(read.problem);
  else if (!flags.control)
    problems.push('--control-token-env and --no-control: a token locks the control API and console, which --no-control turns off; give one of them');
  return 'value' in read ? read.value : undefined;
}

/** `--allowed-host`: names without a port or path (`team.test`, `.team.test`, an IP address). */
function allowedHosts(problems: Problems, names: readonly string[] | undefined): string[] | undefined {
  if (names === undefined || names.length === 0) return undefined;
  const bad = names.filter((name) => isIP(name.replace(/^\[(.*)\]$/, '$1')) === 0 && !/^\.?[^\s/:@[\]?#.][^\s/:@[\]?#]*$/.test(name));
  for (const name of bad)
    problems.push(
      `--allowed-host ${JSON.stringify(name)} must be a host name (team.test), a domain with a leading dot (.team.test: it and every name under it) or an IP address, without a port`,
    );
  return bad.length > 0 ? undefined : [...names];
}

/** `--rate-limit 40/s` (or `40`) and `--max-in-flight N`: the quota per merchant account (UNKNOWNS U50); undefined when neither is given. */
function throttle(problems: Problems, flags: SandboxFlags): ThrottleSetting | undefined {
  let ratePerSecond: number | undefined;
  if (flags.rateLimit !== undefined) {
    const m = /^\s*(\d+)\s*(?:\/\s*s)?\s*$/.exec(flags.rateLimit);
    const n = m ? Number(m[1]) : NaN;
    if (Number.isSafeInteger(n) && n >= 1 && n <= THROTTLE_LIMIT_BOUNDS.ratePerSecond) ratePerSecond = n;
    else
      problems.push(
        `--rate-limit ${JSON.stringify(flags.rateLimit)} must be requests per second per merchant account, e.g. 40/s or 40 (1 to ${THROTTLE_LIMIT_BOUNDS.ratePerSecond})`,
      );
  }
  const maxInFlight = whole(problems, '--max-in-flight', flags.maxInFlight, 1, THROTTLE_LIMIT_BOUNDS.maxInFlight);
  if (ratePerSecond === undefined && maxInFlight === undefined) return undefined;
  return { ...(ratePerSecond === undefined ? {} : { ratePerSecond }), ...(maxInFlight === undefined ? {} : { maxInFlight }) };
}

function limits(problems: Problems, flags: SandboxFlags): Partial<SandboxOptions> {
  const out: Record<string, unknown> = {
    maxBodyBytes: whole(problems, '--max-body-bytes', flags.maxBodyBytes, 1),
    ...serverLimitsFromFlags(problems, flags),
  };
  if (flags.unknownFields !== undefined && flags.unknownFields !== 'refuse' && flags.unknownFields !== 'accept')
    problems.push(`--unknown-fields ${JSON.stringify(flags.unknownFields)} must be refuse or accept`);
  else out.unknownFields = flags.unknownFields;
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** The startSandbox options of `gw sandbox`'s flags, or a GW_CONFIG error listing every bad flag. */
export function sandboxOptionsFromFlags(flags: SandboxFlags, io: CliIo): ResolvedSandboxFlags {
  const problems: Problems = [];
  const port = whole(problems, '--port', flags.port, 0, 65_535);
  const seed = whole(problems, '--seed', flags.seed, 0, 2 ** 32 - 1);
  const attempts = whole(problems, '--notify-attempts', flags.notifyAttempts, 1, 100);
  const baseDelayMs = whole(problems, '--notify-base-delay-ms', flags.notifyBaseDelayMs, 0, 3_600_000);
  const rules = faults(problems, flags, io.cwd);
  const accepted = merchants(problems, flags.merchants, io.cwd);
  const key = secret(problems, flags, io);
  const bounds = limits(problems, flags);
  const redirectExpiryMs = duration(problems, '--redirect-expiry', flags.redirectExpiry);
  const hosts = allowedHosts(problems, flags.allowedHost);
  const token = controlToken(problems, flags, io);
  const quota = throttle(problems, flags);
  if (flags.state === '') problems.push('--state: give a file path');
  if (problems.length > 0) {
    throw new GwError(GW_ERROR_CODES.config, `gw sandbox: ${problems.length} bad flag(s):\n  - ${problems.join('\n  - ')}`, { problems });
  }
  const signer = key === undefined ? undefined : createHmacSha256Signer({ secret: key });
  const notify = { ...(attempts === undefined ? {} : { attempts }), ...(baseDelayMs === undefined ? {} : { baseDelayMs }) };
  const options: SandboxOptions = {
    port,
    host: flags.host,
    ...(hosts ? { allowedHosts: hosts } : {}),
    seed,
    ...bounds,
    ...(rules ? { faults: rules } : {}),
    ...(accepted ? { merchants: accepted } : {}),
    ...(signer ? { signer, verifier: signer } : {}),
    ...(Object.keys(notify).length > 0 ? { notify } : {}),
    ...(redirectExpiryMs === undefined ? {} : { redirectExpiryMs }),
    ...(flags.state ? { stateFile: isAbsolute(flags.state) ? flags.state : join(io.cwd, flags.state) } : {}),
    ...(flags.control ? {} : { control: false }),
    ...(token ? { controlToken: token } : {}),
    ...(quota ? { throttle: quota } : {}),
  };
  return { options, customSecret: signer !== undefined };
}
