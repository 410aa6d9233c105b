import type { Command } from 'commander';
import { SANDBOX_DEFAULT_MERCHANT, startSandbox, type ThrottleSetting } from '@gw/sandbox';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { CliIo } from '../io.ts';
import { paint, say } from '../output.ts';
import { sandboxOptionsFromFlags, type SandboxFlags } from './sandbox-options.ts';
import { withServerLimitFlags } from './server-limit-flags.ts';
import type { CommandContext } from './command-context.ts';

/** The options of `gw sandbox`, as listed by `gw sandbox --help`. */
function withSandboxOptions(command: Command): Command {
  const options = command
    .option('--port <port>', 'TCP port (0 picks a free one)', '8787')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--allowed-host <name>',
      'a Host name to answer besides loopback ones and the listening address, e.g. team.test or .team.test (it and every name under it); repeatable',
      (name: string, names: string[]) => [...names, name],
      [] as string[],
    )
    .option('--seed <seed>', 'seed of faults and generated references', '1')
    .option('--faults <file|json>', 'random fault rules by path, a JSON file or inline JSON, e.g. \'{"/v1/capture":{"http5xx":0.1}}\'')
    .option('--latency <ms>', 'added latency on every operation: milliseconds or a range such as 20-80')
    .option('--secret <secret>', 'secret of the reference HMAC-SHA256 signer (default: the public sandbox secret); never printed')
    .option('--secret-env <name>', 'read that secret from this environment variable instead')
    .option('--merchants <file|json>', 'accepted merchants: a JSON array of {"merchantId","accountId"}')
    .option('--notify-attempts <n>', 'notification attempts in all, the first included (default 5)')
    .option('--notify-base-delay-ms <ms>', 'delay before the second notification attempt, doubling each time (default 200)')
    .option(
      '--redirect-expiry <duration>',
      'how long a checkout or alternative-method payment waits for the shopper before it expires: ms or 90s, 30m, 2h, 1d (default 30m)',
    )
    .option('--state <file>', 'keep the state in this SQLite file across restarts (default: memory only)')
    .option('--no-control', 'turn off the control API (/sandbox/api/) and the web console (/sandbox/console)')
    .option(
      '--control-token-env <name>',
      'lock the control API (Authorization: Bearer) and the console (a login form) with the token in this environment variable; needed to listen on an address other than loopback with them on',
    )
    .option('--max-body-bytes <n>', 'largest request body (default 1048576)')
    .option(
      '--rate-limit <n/s>',
      'requests per second each merchant account may make, e.g. 40/s (or 40): more in any 1000 ms get HTTP 429 with Retry-After, nothing applied (default no limit)',
    )
    .option('--max-in-flight <n>', 'requests of a merchant account in flight at once: one more gets HTTP 429 with Retry-After (default no limit)');
  return withServerLimitFlags(options).option('--unknown-fields <refuse|accept>', 'request members the spec does not list (default refuse)');
}

/** `40 requests/s and 3 in flight`: the quota `--rate-limit` and `--max-in-flight` set. */
function throttleText(quota: ThrottleSetting): string {
  const limits = [quota.ratePerSecond ? `${quota.ratePerSecond} requests/s` : '', quota.maxInFlight ? `${quota.maxInFlight} in flight` : ''];
  return limits.filter(Boolean).join(' and ');
}

async function start(flags: SandboxFlags, io: CliIo) {
  const { options, customSecret } = sandboxOptionsFromFlags(flags, io);
  try {
    return { sandbox: await startSandbox(options), options, customSecret };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new GwError(
        GW_ERROR_CODES.config,
        `gw sandbox: cannot listen on ${flags.host}:${flags.port} (${String(code)}); choose another --port or --host`,
        { host: flags.host, port: flags.port },
        { cause: error },
      );
    }
    throw error;
  }
}

/** `gw sandbox [flags]`: runs the local gateway until interrupted. */
export function registerSandbox(program: Command, { io, signals }: CommandContext): void {
  withSandboxOptions(
    program.command('sandbox').description('run the stateful local gateway (every /v1 operation, control API and console) until Ctrl-C'),
  ).action(async (flags: SandboxFlags) => {
    const { sandbox, options, customSecret } = await start(flags, io);
    const merchants = options.merchants ?? [SANDBOX_DEFAULT_MERCHANT];
    say(io, `${paint(io, 'green', 'gw sandbox')} listening on ${sandbox.url}`);
    say(
      io,
      `  merchants ${merchants.map((m) => `${m.merchantId} / ${m.accountId}`).join(', ')}; reference HMAC-SHA256 signer with ${customSecret ? 'your secret' : 'the default sandbox secret'} (not printed)`,
    );
    if (options.control !== false)
      say(
        io,
        `  console ${sandbox.url}/sandbox/console, control API ${sandbox.url}/sandbox/api/ (${options.controlToken ? 'locked with the control token (not printed)' : 'no authentication: keep it on a local address, or lock it with --control-token-env NAME'})`,
      );
    const names = ['127.0.0.1', 'localhost', ...(['127.0.0.1', 'localhost'].includes(flags.host) ? [] : [flags.host]), ...(options.allowedHosts ?? [])];
    say(io, `  answers the Host names ${names.join(', ')} (and other loopback ones); any other gets 403: --allowed-host NAME adds one`);
    if (options.throttle)
      say(
        io,
        `  throttles each merchant account at ${throttleText(options.throttle)} (HTTP 429 with Retry-After, nothing applied); counts at ${sandbox.url}/sandbox/api/throttle/stats`,
      );
    say(
      io,
      options.stateFile
        ? `  state kept in ${options.stateFile} (${sandbox.state.orders.size} orders loaded)`
        : '  state in memory only (--state FILE keeps it across restarts)',
    );
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
