import { isAbsolute, join } from 'node:path';
import { ledgerUrlHoldsSecrets } from '@gw/batch';
import type { Command } from 'commander';
import type { CliIo } from '../io.ts';

/** A command line to print: the text to run, and the environment variables it reads (each with what to set it to). */
export interface PrintedCommand {
  readonly line: string;
  readonly env: readonly { readonly name: string; readonly holds: string }[];
}

/** A word as a POSIX shell reads it back unchanged: as it is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Options that name files: printed as absolute paths, so the command runs from any folder. */
const PATHS = new Set(['journal', 'results', 'config']);

/** What the command line of a batch needs besides the flags it was given. */
export interface BatchCommandParts {
  /** `capture`, `refund`, ... or `worker`. */
  readonly operation: string;
  /** The orders file (absent for a worker). */
  readonly ordersFile?: string;
  /** The ledger's URL when the batch is kept in one (from --ledger or GW_LEDGER_URL), and its batch id. */
  readonly ledger?: string;
  /** The ledger's listen URL, when given (--ledger-listen-url or GW_LEDGER_LISTEN_URL). */
  readonly ledgerListen?: string;
  readonly batch?: string;
  /** Add `--resume` (a stopped batch). */
  readonly resume: boolean;
}

/**
 * The exact command that finishes (or rejoins) a stopped batch: `gw batch` with the flags this run was given on its
 * command line, as typed (files as absolute paths, so it runs from any folder), plus `--resume` and the batch's id;
 * secrets never printed: `--secret` and a ledger URL that holds a password or certificate paths are given as their
 * environment variables (`"$GW_SECRET"`, `"$GW_LEDGER_URL"`, `"$GW_LEDGER_LISTEN_URL"`), which the text says to set.
 */
export function batchCommand(io: CliIo, command: Command, parts: BatchCommandParts): PrintedCommand {
  const words = ['gw', 'batch', parts.operation];
  if (parts.ordersFile) words.push(shellWord(absolute(io, parts.ordersFile)));
  const env: { name: string; holds: string }[] = [];
  const values = command.opts<Record<string, unknown>>();
  for (const option of command.options) {
    const key = option.attributeName();
    const value = values[key];
    if (value === undefined || ['resume', 'batch', 'ledger', 'ledgerListenUrl'].includes(key)) continue;
    const given = command.getOptionValueSource(key);
    if (key === 'secret' && (given === 'cli' || given === 'env')) {
      words.push(option.long!, '"$GW_SECRET"');
      env.push({ name: 'GW_SECRET', holds: "the signer's secret this run was given" });
      continue;
    }
    if (given !== 'cli' || option.long === undefined) continue;
    if (value === true) words.push(option.long);
    else if (typeof value === 'string') words.push(option.long, shellWord(PATHS.has(key) ? absolute(io, value) : value));
  }
  if (parts.ledger !== undefined) urlWords(words, env, '--ledger', parts.ledger, { name: 'GW_LEDGER_URL', what: "the ledger's postgres:// URL" });
  if (parts.ledgerListen !== undefined)
    urlWords(words, env, '--ledger-listen-url', parts.ledgerListen, { name: 'GW_LEDGER_LISTEN_URL', what: "the ledger's direct postgres:// URL for wake-ups" });
  if (parts.batch !== undefined) words.push('--batch', shellWord(parts.batch));
  if (parts.resume) words.push('--resume');
  return { line: words.join(' '), env };
}

/** A URL flag as printed: as it is, or its environment variable when it holds a secret (which the text says to set). */
function urlWords(words: string[], env: { name: string; holds: string }[], flag: string, url: string, variable: { name: string; what: string }): void {
  if (!ledgerUrlHoldsSecrets(url)) {
    words.push(flag, shellWord(url));
    return;
  }
  words.push(flag, `"$${variable.name}"`);
  env.push({ name: variable.name, holds: `${variable.what} (it holds a password or certificate paths, never printed)` });
}

/** The command as a person reads it: the line, then which environment variables to set first. */
export function printed(command: PrintedCommand): string {
  const set = command.env.map((e) => `${e.name} (${e.holds})`);
  return `  ${command.line}${set.length > 0 ? `\nwith ${set.join(' and ')} set in the environment` : ''}`;
}

function absolute(io: CliIo, path: string): string {
  return isAbsolute(path) ? path : join(io.cwd, path);
}
