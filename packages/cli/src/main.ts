import { processIo } from './io.ts';
import { runCli } from './program.ts';

/** Runs `gw` with the process's arguments and streams; resolves to the exit status. */
export function main(): Promise<number> {
  return runCli(process.argv.slice(2), processIo());
}
