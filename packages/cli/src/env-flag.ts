/**
 * The value of the environment variable a `--…-env NAME` flag names (a secret or a token, so it is read from there and
 * never from the command line), or the problem to report when it is unset or empty; the value is never in the problem.
 */
export function envFlagValue(
  env: Readonly<Record<string, string | undefined>>,
  flag: string,
  name: string,
): { readonly value: string } | { readonly problem: string } {
  const value = env[name];
  return value ? { value } : { problem: `${flag} ${name}: that environment variable is not set or empty` };
}
