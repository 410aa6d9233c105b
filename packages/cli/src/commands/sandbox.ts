import type { Command } from 'commander';
import { SANDBOX_DEFAULT_MERCHANT, startSandbox } from '@gw/sandbox';
import type { CliIo } from '../io.ts';
import { paint, say } from '../output.ts';

/** `gw sandbox [--port] [--host] [--seed]`: runs the local gateway until interrupted. */
export function registerSandbox(program: Command, io: CliIo, signals: NodeJS.EventEmitter): void {
  program
    .command('sandbox')
    .description('run the stateful local gateway (every /v1 operation) until Ctrl-C')
    .option('--port <port>', 'TCP port (0 picks a free one)', '8787')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--seed <seed>', 'seed of faults and generated references', '1')
    .action(async (options: { port: string; host: string; seed: string }) => {
      const sandbox = await startSandbox({ port: Number(options.port), host: options.host, seed: Number(options.seed) });
      say(io, `${paint(io, 'green', 'gw sandbox')} listening on ${sandbox.url}`);
      say(io, `  merchant ${SANDBOX_DEFAULT_MERCHANT.merchantId} / account ${SANDBOX_DEFAULT_MERCHANT.accountId}, reference HMAC-SHA256 signer (its secret is not printed)`);
      say(io, `  try: gw call query --base-url ${sandbox.url} --sandbox-defaults --data query.json`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        signals.once('SIGINT', stop);
        signals.once('SIGTERM', stop);
      });
      await sandbox.stop();
      say(io, `gw sandbox stopped after ${sandbox.state.requestCount} requests`);
    });
}
