import type { Command } from 'commander';
import { createFileDedupeStore, createMemoryDedupeStore } from '@gw/notifications';
import { SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { GW_ERROR_CODES, GwError, SERVER_LIMIT_DEFAULTS } from '@gw/types';
import { CONFIG_ENV } from '../config.ts';
import type { CliIo } from '../io.ts';
import { startListener, type ListenRecord } from '../listen/listener.ts';
import { paint, say } from '../output.ts';
import { serverLimitsFromFlags, withServerLimitFlags, wholeFlag, type ServerLimitFlags } from './server-limit-flags.ts';
import type { CommandContext } from './command-context.ts';

interface ListenFlags extends ServerLimitFlags {
  forwardTo: string;
  port: string;
  host: string;
  secret?: string[];
  secretEnv?: string[];
  sandboxDefaults?: boolean;
  toleranceSeconds: string;
  skipDuplicates?: boolean;
  seenFile?: string;
  forwardTimeoutMs: string;
}

/** The secrets to verify with: `--secret` values, the variables named by `--secret-env`, GW_SECRET, or the sandbox's. */
function secrets(flags: ListenFlags, io: CliIo): string[] {
  const list = [...(flags.secret ?? [])];
  for (const name of flags.secretEnv ?? []) {
    const value = io.env[name];
    if (!value) throw new GwError(GW_ERROR_CODES.config, `--secret-env ${name}: the variable is not set`, { variable: name });
    list.push(value);
  }
  const fromEnv = io.env[CONFIG_ENV.secret];
  if (list.length === 0 && fromEnv) list.push(fromEnv);
  if (list.length === 0 && flags.sandboxDefaults) list.push(SANDBOX_DEFAULT_SECRET);
  if (list.length === 0)
    throw new GwError(GW_ERROR_CODES.config, 'no secret to verify with: pass --secret, --secret-env NAME, GW_SECRET or --sandbox-defaults', {});
  return list;
}

function describeRecord(io: CliIo, r: ListenRecord): string {
  const time = r.at.toISOString().slice(11, 19);
  const kind = r.event?.kind ?? '?';
  const id = r.event?.id ?? '-';
  const verified = r.verification.ok ? paint(io, 'green', 'verified') : paint(io, 'red', `refused: ${r.verification.reason} (${r.verification.code})`);
  let forward: string;
  if (r.skippedDuplicate) forward = 'duplicate of an event already forwarded: not forwarded, answered 200';
  else if (!r.forward) forward = 'not forwarded';
  else if (r.forward.ok) forward = `forwarded -> ${r.forward.status}`;
  else forward = paint(io, 'red', `forward failed: ${r.forward.error}; answered ${r.answered}, the sender will retry`);
  const unrecorded = r.notRecorded ? paint(io, 'yellow', `  (the seen-file could not record it: ${r.notRecorded}; remembered until gw listen stops)`) : '';
  return `${time}  ${kind}  ${id}  ${verified}  ${forward}${unrecorded}`;
}

/** `gw listen --forward-to URL`: receives notifications, verifies and prints each, forwards the raw body and headers. */
export function registerListen(program: Command, { io, signals }: CommandContext): void {
  const command = program
    .command('listen')
    .description('receive notifications locally: verify each, print its kind, id and verification, forward it unchanged to your app')
    .requiredOption('--forward-to <url>', "your application's notification endpoint")
    .option('--port <port>', 'TCP port to receive on (0 picks a free one)', '8788')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--secret <secret...>', 'secret(s) of the reference HMAC-SHA256 signer; several during a rotation; never printed')
    .option('--secret-env <name...>', 'read the secret(s) from these environment variables')
    .option('--sandbox-defaults', "verify with the sandbox's default secret")
    .option('--tolerance-seconds <s>', 'largest distance of the signed time from now', '300')
    .option('--skip-duplicates', 'do not forward an event already forwarded and acknowledged (default: forward every delivery)')
    .option('--seen-file <path>', 'with --skip-duplicates: keep forwarded event ids in this file across restarts')
    .option('--forward-timeout-ms <ms>', 'time allowed for your app to answer', '10000');
  withServerLimitFlags(command).action(async (flags: ListenFlags) => {
    if (!/^https?:\/\//.test(flags.forwardTo)) throw new GwError(GW_ERROR_CODES.config, `--forward-to must be an http(s) URL, not ${flags.forwardTo}`, {});
    const problems: string[] = [];
    const port = wholeFlag(problems, '--port', flags.port, 0, 65_535);
    const limits = serverLimitsFromFlags(problems, flags);
    const toleranceSeconds = Number(flags.toleranceSeconds);
    if (!(toleranceSeconds > 0) || !Number.isFinite(toleranceSeconds))
      problems.push(`--tolerance-seconds must be a positive number of seconds, not ${flags.toleranceSeconds}`);
    if (problems.length > 0)
      throw new GwError(GW_ERROR_CODES.config, `gw listen: ${problems.length} bad flag(s):\n  - ${problems.join('\n  - ')}`, { problems });
    const verify = { verifiers: secrets(flags, io).map((secret) => createHmacSha256Signer({ secret })), toleranceSeconds };
    const store = flags.seenFile ? createFileDedupeStore(flags.seenFile) : createMemoryDedupeStore();
    const { url, server } = await startListener({
      forwardTo: flags.forwardTo,
      port: port!,
      host: flags.host,
      verify,
      store,
      skipDuplicates: Boolean(flags.skipDuplicates),
      forwardTimeoutMs: Number(flags.forwardTimeoutMs),
      limits,
      onRecord: (record) => say(io, describeRecord(io, record)),
    });
    say(
      io,
      `${paint(io, 'green', 'gw listen')} receiving on ${url}, forwarding to ${flags.forwardTo} (${verify.verifiers.length} secret(s), tolerance ${flags.toleranceSeconds} s)`,
    );
    const cut = { ...SERVER_LIMIT_DEFAULTS, ...limits };
    say(
      io,
      `  cuts slow connections: headers ${cut.headersTimeoutMs} ms, request ${cut.requestTimeoutMs} ms, body pause ${cut.bodyTimeoutMs} ms, idle keep-alive ${cut.keepAliveTimeoutMs} ms; at most ${cut.maxConnections} connections`,
    );
    say(io, `  use it as notify_url; Ctrl-C stops`);
    await new Promise<void>((resolve) => {
      signals.once('SIGINT', () => resolve());
      signals.once('SIGTERM', () => resolve());
    });
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    say(io, 'gw listen stopped');
  });
}
