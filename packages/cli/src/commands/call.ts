import type { Command } from 'commander';
import { operations, type OperationName } from '@gw/types';
import { GW_ERROR_CODES, GwError, ValidationError, isGwError } from '@gw/types';
import { clientFor, gatewayConfig, type GatewayFlags } from '../gateway.ts';
import { EXIT_CODES } from '../exit-codes.ts';
import { paint, say, warn } from '../output.ts';
import { refusals } from '../refusals.ts';
import { SentThenFailedError } from '../sent-then-failed-error.ts';
import { readInput } from '../read-input.ts';
import { parseJsonInput } from '../json-input.ts';
import { withFieldGuesses } from '../field-guess.ts';
import type { CommandContext } from './command-context.ts';

/**
 * `gw call <operation> --data file.json|-`: one operation through the client, the typed result printed as JSON; an
 * answer that refuses the request or any of its elements also exits with the "gateway refused" status.
 */
export function registerCall(program: Command, { io, withGatewayOptions, run }: CommandContext): void {
  const names = Object.keys(operations) as OperationName[];
  withGatewayOptions(
    program
      .command('call')
      .description(`call one operation and print its typed result as JSON (${names.join(', ')})`)
      .argument('<operation>', `one of ${names.join(', ')}`)
      .requiredOption('--data <file>', 'the request record as JSON (merchant ids and encryption_data are filled in), or - for standard input'),
  ).action(async (operation: string, flags: GatewayFlags & { data: string }) => {
    if (!names.includes(operation as OperationName)) {
      throw new GwError(GW_ERROR_CODES.config, `unknown operation ${operation}; use one of ${names.join(', ')}`, {});
    }
    const record = parseJsonInput(await readInput(io, flags.data), flags.data);
    let sent = false;
    const client = (await clientFor(io, gatewayConfig(io, flags), { onRequest: () => (sent = true) })) as unknown as Record<
      string,
      (r: unknown) => Promise<unknown>
    >;
    let result: unknown;
    try {
      result = await client[operation]!(record);
    } catch (error) {
      if (error instanceof ValidationError) throw withFieldGuesses(operation as OperationName, record, error);
      // Whatever threw once the request was on its way leaves the outcome unknown (exit 8), never a bare failure.
      throw !isGwError(error) && sent ? new SentThenFailedError(operation as OperationName, record, error) : error;
    }
    say(io, JSON.stringify(result, null, 2));
    const refused = refusals(operation as OperationName, result);
    if (refused.length === 0) return;
    warn(io, paint(io, 'red', `gw: the gateway refused ${refused.length} part(s) of the request: ${refused.join('; ')}`, io.stderr));
    run.exitCode = EXIT_CODES.gateway;
  });
}
