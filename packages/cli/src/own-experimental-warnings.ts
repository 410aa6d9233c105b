// gw's own use of Node's experimental features is not the user's business: Node 22 prints "ExperimentalWarning: SQLite
// is an experimental feature" when `gw sandbox --state FILE` loads node:sqlite. Only those warnings are dropped; every
// other warning (a deprecation, another experimental feature, a user's own) still reaches the user as Node prints it.

/** The experimental warnings gw's own commands cause, by the start of their message: node:sqlite (`--state FILE`). */
export const OWN_EXPERIMENTAL_WARNINGS: readonly string[] = ['SQLite is an experimental feature'];

/** True when `process.emitWarning(warning, typeOrOptions)` is one of gw's own experimental warnings. */
export function isOwnExperimentalWarning(warning: unknown, typeOrOptions: unknown): boolean {
  const type =
    typeof typeOrOptions === 'string'
      ? typeOrOptions
      : typeof typeOrOptions === 'object' && typeOrOptions !== null && 'type' in typeOrOptions
        ? typeOrOptions.type
        : undefined;
  const name = warning instanceof Error ? warning.name : type;
  const message = warning instanceof Error ? warning.message : String(warning);
  return name === 'ExperimentalWarning' && OWN_EXPERIMENTAL_WARNINGS.some((start) => message.startsWith(start));
}

/**
 * Makes `proc` (the gw process) drop gw's own experimental warnings; call it before anything loads node:sqlite.
 * Node emits them through `process.emitWarning`, so that is filtered: the 'warning' event and Node's printer of it are
 * left as they are, and anything else emitted still prints.
 */
export function dropOwnExperimentalWarnings(proc: Pick<NodeJS.Process, 'emitWarning'> = process): void {
  const emitWarning = proc.emitWarning;
  proc.emitWarning = function filtered(this: unknown, warning: string | Error, ...rest: unknown[]) {
    if (isOwnExperimentalWarning(warning, rest[0])) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as NodeJS.Process['emitWarning'];
}
