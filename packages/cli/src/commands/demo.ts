import type { Command } from 'commander';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { startSandbox } from '@gw/sandbox';
import { runDemo } from '../demo/run-demo.ts';
import type { CommandContext } from './command-context.ts';

/** `gw demo`: an embedded sandbox and every operation through the client, a table per step and a summary. */
export function registerDemo(program: Command, { io, run }: CommandContext): void {
  program
    .command('demo')
    .description(
      'start an embedded sandbox and walk every operation through the client, show a drift report of gw proxy in front of it, end with a 1,000-order batch capture',
    )
    .option('--orders <n>', 'orders in the closing batch capture', '1000')
    .option('--notify-url <url>', 'where the sandbox sends the payment and payout notifications (e.g. your own receiver); none by default')
    .action(async (options: { orders: string; notifyUrl?: string }) => {
      const orders = Number(options.orders);
      if (!Number.isInteger(orders) || orders < 1) throw new GwError(GW_ERROR_CODES.config, '--orders must be a whole number of at least 1', {});
      if (options.notifyUrl !== undefined && !/^https?:\/\//.test(options.notifyUrl))
        throw new GwError(GW_ERROR_CODES.config, '--notify-url must be an http:// or https:// address', {});
      // try/finally rather than `await using`: Node 22 runs these sources without a syntax transform.
      const sandbox = await startSandbox({ seed: 7 });
      try {
        if (!(await runDemo(io, { sandbox, orders, ...(options.notifyUrl ? { notifyUrl: options.notifyUrl } : {}) }))) run.exitCode = 1;
        if (options.notifyUrl) await sandbox.notificationsIdle(5_000);
      } finally {
        await sandbox.stop();
      }
    });
}
