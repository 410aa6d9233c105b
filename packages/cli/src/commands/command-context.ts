import type { Command } from 'commander';
import type { CliIo } from '../io.ts';

/** What registering a command may use: the program's I/O, signals, exit status and the gateway options' adder. */
export interface CommandContext {
  readonly io: CliIo;
  readonly signals: NodeJS.EventEmitter;
  readonly run: { exitCode: number };
  /** Adds the options that name a gateway (base URL, merchant, account, signer, timeout, config) to a command. */
  readonly withGatewayOptions: (command: Command) => Command;
}

/** Adds a command (and its subcommands) to the program. */
export type RegisterCommand = (program: Command, context: CommandContext) => unknown;
