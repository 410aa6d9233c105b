import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { isGwError } from '@gw/types';
import { EXIT_CODES, exitCodeFor, exitCodeHelp } from './exit-codes.ts';
import type { RegisterCommand } from './commands/command-context.ts';
import type { CliIo } from './io.ts';
import { paint, warn } from './output.ts';

const { version } = createRequire(import.meta.url)('@gw/cli/package.json') as { version: string };

function withGatewayOptions(command: Command): Command {
  return command
    .option('--base-url <url>', 'gateway base address (GW_BASE_URL)')
    .option('--merchant-id <id>', 'merchant_id (GW_MERCHANT_ID)')
    .option('--account-id <id>', 'account_id (GW_ACCOUNT_ID)')
    .option('--secret <secret>', 'secret of the reference HMAC-SHA256 signer, as the sandbox uses (GW_SECRET); never printed')
    .option('--signer <module>', "a module exporting createSigner(config) for your gateway's algorithm (GW_SIGNER)")
    .option('--timeout-ms <ms>', 'time limit per request (GW_TIMEOUT_MS)')
    .option('--config <file>', 'a JSON config file (GW_CONFIG; default ./gw.config.json when present)')
    .option('--sandbox-defaults', "use the sandbox's default merchant, account and signer secret");
}

/**
 * Every command, in the order help lists them, each loaded only when needed: `gw batch worker` loads the batch
 * runner and the client, not the sandbox server, the proxy or the notifications receiver (a process of a fleet starts
 * faster); help, completion, an unknown command or no command loads them all.
 */
const COMMANDS: Record<string, () => Promise<RegisterCommand>> = {
  sandbox: async () => (await import('./commands/sandbox.ts')).registerSandbox,
  demo: async () => (await import('./commands/demo.ts')).registerDemo,
  call: async () => (await import('./commands/call.ts')).registerCall,
  batch: async () => (await import('./commands/batch.ts')).registerBatch,
  ledger: async () => (await import('./commands/ledger.ts')).registerLedger,
  decode: async () => (await import('./commands/decode.ts')).registerDecode,
  listen: async () => (await import('./commands/listen.ts')).registerListen,
  proxy: async () => (await import('./commands/proxy.ts')).registerProxy,
  spec: async () => (await import('./commands/spec.ts')).registerSpec,
  trigger: async () => (await import('./commands/trigger.ts')).registerTrigger,
  notifications: async () => (await import('./commands/notifications.ts')).registerNotifications,
  completion: async () => (await import('./commands/completion.ts')).registerCompletion,
};

/** Commands that read the whole program (its other commands and their flags), so every command is loaded for them. */
const NEEDS_EVERY_COMMAND = new Set(['completion']);

/** The commands `argv` needs: the one it names first, or all of them (help, completion, an unknown command, none). */
function commandsFor(argv: readonly string[]): string[] {
  const first = argv[0];
  return first !== undefined && Object.hasOwn(COMMANDS, first) && !NEEDS_EVERY_COMMAND.has(first) ? [first] : Object.keys(COMMANDS);
}

/** Runs `gw` with `argv` (without the node and script names); resolves to the exit status. */
export async function runCli(argv: readonly string[], io: CliIo, signals: NodeJS.EventEmitter = process): Promise<number> {
  const run = { exitCode: EXIT_CODES.ok as number };
  const program = new Command('gw')
    .description('gw: the Merchant Payment Gateway /v1 toolkit on the command line')
    .version(version)
    .showHelpAfterError()
    .addHelpText('after', `\nConfiguration: flags, then GW_* environment variables, then a JSON config file.\n\n${exitCodeHelp()}`)
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .exitOverride();
  const registers = await Promise.all(commandsFor(argv).map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program, { io, signals, run, withGatewayOptions });
  for (const command of program.commands) command.exitOverride().configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    const status = exitCodeFor(error);
    // Said once: a line on a terminal; `gw call` off a terminal writes the typed error as JSON instead, for scripts.
    if (isGwError(error) && argv[0] === 'call' && !io.stderr.isTTY)
      io.stderr.write(`${JSON.stringify({ error: error.toJSON(), exitStatus: status }, null, 2)}\n`);
    else if (isGwError(error)) warn(io, paint(io, 'red', `gw: ${error.code}: ${error.message}`, io.stderr));
    else {
      warn(io, `gw: unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
    }
    return status;
  }
  return run.exitCode;
}
