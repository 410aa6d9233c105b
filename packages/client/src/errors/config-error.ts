import { GW_ERROR_CODES, GwError } from '@gw/types';

/** One bad option: its name and what is wrong with it. */
export interface ConfigProblem {
  readonly option: string;
  readonly message: string;
}

/** Context of a ConfigError: the first bad option, and every one found. */
export interface ConfigErrorDetails {
  /** The first bad option. */
  readonly option: string;
  /** Every bad option found, in the order they were checked. */
  readonly problems: readonly ConfigProblem[];
}

/** `createClient` options (or a per-call option) missing or invalid; the message names every bad option at once. */
export class ConfigError extends GwError<ConfigErrorDetails> {
  override readonly name = 'ConfigError';

  /** `new ConfigError(option, message)` for one bad option, `new ConfigError(problems)` for several. */
  constructor(optionOrProblems: string | readonly ConfigProblem[], message = '') {
    const problems = typeof optionOrProblems === 'string' ? [{ option: optionOrProblems, message }] : [...optionOrProblems];
    const text =
      problems.length === 1
        ? `createClient: ${problems[0]!.option} ${problems[0]!.message}`
        : `createClient: ${problems.length} problems: ${problems.map((p) => `${p.option} ${p.message}`).join('; ')}`;
    super(GW_ERROR_CODES.config, text, { option: problems[0]?.option ?? '', problems });
  }
}
