export { runCli } from './program.ts';
export { processIo, type CliIo } from './io.ts';
export { EXIT_CODES, exitCodeFor } from './exit-codes.ts';
export { resolveConfig, describeConfig, type GwConfig } from './config.ts';
