import type { Command } from 'commander';
import { maskedLedgerUrl, migrateLedger } from '@gw/batch';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { say, warn } from '../output.ts';
import type { CommandContext } from './command-context.ts';

/** The flags of `gw ledger migrate`. */
interface MigrateFlags {
  readonly ledger?: string;
  readonly role: string;
}

/**
 * `gw ledger migrate --ledger URL [--role NAME]`: applies the ledger's migrations as the database's owner, then prints
 * the exact grants a worker role needs (on stdout, one statement a line, to pipe into psql; what was done on stderr).
 */
export function registerLedger(program: Command, { io }: CommandContext): void {
  const ledger = program.command('ledger').description('set up the PostgreSQL ledger that gw batch --ledger keeps batches in');
  ledger
    .command('migrate')
    .description(
      "apply the ledger's migrations (as a role that may create tables: the database's owner), then print the GRANT statements a worker role needs, which then runs gw batch without CREATE",
    )
    .option('--ledger <url>', "the ledger's database as its owner (postgres://…; GW_LEDGER_URL)")
    .option('--role <name>', 'the worker role to grant to', 'gw_worker')
    .action(async (flags: MigrateFlags) => {
      const url = flags.ledger ?? io.env.GW_LEDGER_URL;
      if (!url)
        throw new GwError(GW_ERROR_CODES.config, "gw ledger migrate needs --ledger <postgres://…> (or GW_LEDGER_URL): the ledger's database, as its owner", {});
      const result = await migrateLedger(url, { role: flags.role });
      const done = result.from === result.to ? `already at migration ${result.to}` : `migrated from ${result.from} to ${result.to}`;
      warn(io, `ledger ${maskedLedgerUrl(url)} (schema ${result.schema}): ${done}; the grants role ${flags.role} needs to run gw batch --ledger:`);
      for (const grant of result.grants) say(io, grant);
    });
}
