import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { isGwError } from '@gw/types';
import { registerBatch } from './commands/batch.ts';
import { registerCall } from './commands/call.ts';
import { registerDecode } from './commands/decode.ts';
import { registerDemo } from './commands/demo.ts';
import { registerListen } from './commands/listen.ts';
import { registerProxy } from './commands/proxy.ts';
import { registerSpec } from './commands/spec.ts';
import { registerNotifications } from './commands/notifications.ts';
import { registerTrigger } from './commands/trigger.ts';
import { registerSandbox } from './commands/sandbox.ts';
import { EXIT_CODES, exitCodeFor, exitCodeHelp } from './exit-codes.ts';
import type { CliIo } from './io.ts';
import { paint, warn } from './output.ts';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

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
  registerSandbox(program, io, signals);
  registerDemo(program, io, run);
  registerCall(program, io, withGatewayOptions, run);
  registerBatch(program, io, withGatewayOptions, signals, run);
  registerDecode(program, io);
  registerListen(program, io, signals);
  registerProxy(program, io, signals);
  registerSpec(program, io, run);
  registerTrigger(program, io, withGatewayOptions);
  registerNotifications(program, io);
  for (const command of program.commands) command.exitOverride().configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    const status = exitCodeFor(error);
    // Said once: a line on a terminal; `gw call` off a terminal writes the typed error as JSON instead, for scripts.
    if (isGwError(error) && argv[0] === 'call' && !io.stderr.isTTY) io.stderr.write(`${JSON.stringify({ error: error.toJSON(), exitStatus: status }, null, 2)}\n`);
    else if (isGwError(error)) warn(io, paint(io, 'red', `gw: ${error.code}: ${error.message}`, io.stderr));
    else {
      warn(io, `gw: unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
    }
    return status;
  }
  return run.exitCode;
}
