// The time and connection limits of a server gw starts (`gw sandbox`, `gw listen`): one list of flags, the sandbox's
// defaults (UNKNOWNS U51), parsed the same way for both.
import type { Command } from 'commander';
import { SERVER_LIMIT_DEFAULTS } from '@gw/types';

/** Each limit: its startSandbox / serverLimits option, its flag, and what it bounds. */
export const SERVER_LIMIT_FLAGS = [
  { key: 'headersTimeoutMs', flag: '--headers-timeout-ms', arg: '<ms>', what: 'time to receive request headers' },
  { key: 'requestTimeoutMs', flag: '--request-timeout-ms', arg: '<ms>', what: 'time to receive a whole request' },
  { key: 'bodyTimeoutMs', flag: '--body-timeout-ms', arg: '<ms>', what: 'longest pause while a body arrives' },
  { key: 'keepAliveTimeoutMs', flag: '--keep-alive-timeout-ms', arg: '<ms>', what: 'idle keep-alive connection lifetime' },
  { key: 'maxConnections', flag: '--max-connections', arg: '<n>', what: 'open connections at most' },
] as const;

/** A limit's option name. */
export type ServerLimitKey = (typeof SERVER_LIMIT_FLAGS)[number]['key'];

/** The limit flags as commander gives them (text). */
export type ServerLimitFlags = { readonly [K in ServerLimitKey]?: string };

/** Adds the limit flags to `command`, each with its default in its help. */
export function withServerLimitFlags(command: Command): Command {
  for (const { flag, arg, what, key } of SERVER_LIMIT_FLAGS) command.option(`${flag} ${arg}`, `${what} (default ${SERVER_LIMIT_DEFAULTS[key]})`);
  return command;
}

/** `text` as a whole number from `min` to `max`; otherwise a problem naming `flag`, and undefined. */
export function wholeFlag(problems: string[], flag: string, text: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    problems.push(`${flag} ${JSON.stringify(text)} must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}`);
    return undefined;
  }
  return n;
}

/** The limits given as flags (those not given are left out: the defaults apply); each bad one is added to `problems`. */
export function serverLimitsFromFlags(problems: string[], flags: ServerLimitFlags): { -readonly [K in ServerLimitKey]?: number } {
  const limits: { -readonly [K in ServerLimitKey]?: number } = {};
  for (const { key, flag } of SERVER_LIMIT_FLAGS) {
    const value = wholeFlag(problems, flag, flags[key], 1);
    if (value !== undefined) limits[key] = value;
  }
  return limits;
}
