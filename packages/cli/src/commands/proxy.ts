import { resolve } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_UPSTREAM_DEADLINE_MS, startProxy } from '@gw/proxy';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { envFlagValue } from '../env-flag.ts';
import { paint, say } from '../output.ts';
import { wholeFlag } from './server-limit-flags.ts';
import type { CommandContext } from './command-context.ts';

interface ProxyFlags {
  upstream: string;
  port: string;
  report?: string;
  secretEnv?: string;
  upstreamDeadlineMs?: string;
}

/** `gw proxy --upstream URL`: forwards traffic unchanged and writes what differs from the spec to a report. */
export function registerProxy(program: Command, { io, signals }: CommandContext): void {
  program
    .command('proxy')
    .description('sit between your code and the gateway: forward every request unchanged, report where the gateway differs from the spec')
    .requiredOption('--upstream <url>', "the gateway's base address (the /v1 paths are appended)")
    .option('--port <port>', 'TCP port on 127.0.0.1 (0 picks a free one)', '8789')
    .option('--report <file>', 'write the drift report (JSON) to this file as traffic goes; read it with gw spec drift')
    .option('--secret-env <name>', "verify answers' encryption_data with the reference signer and the secret in this environment variable")
    .option(
      '--upstream-deadline-ms <ms>',
      `longest an exchange may take to its answer's last byte: then 504, or the connection closed if the answer had begun (default ${DEFAULT_UPSTREAM_DEADLINE_MS})`,
    )
    .action(async (flags: ProxyFlags) => {
      const problems: string[] = [];
      if (!/^https?:\/\/./.test(flags.upstream)) problems.push(`--upstream must be an http(s) URL, not ${flags.upstream}`);
      const port = wholeFlag(problems, '--port', flags.port, 0, 65_535);
      const upstreamDeadlineMs = wholeFlag(problems, '--upstream-deadline-ms', flags.upstreamDeadlineMs, 1, 2_147_483_647);
      const secret = flags.secretEnv === undefined ? null : envFlagValue(io.env, '--secret-env', flags.secretEnv);
      if (secret && 'problem' in secret) problems.push(secret.problem);
      if (problems.length > 0)
        throw new GwError(GW_ERROR_CODES.config, `gw proxy: ${problems.length} bad flag(s):\n  - ${problems.join('\n  - ')}`, { problems });
      const reportFile = flags.report === undefined ? undefined : resolve(io.cwd, flags.report);
      const verifier = secret && 'value' in secret ? createHmacSha256Signer({ secret: secret.value }) : undefined;
      const proxy = await startProxy({
        upstream: flags.upstream,
        port: port!,
        ...(reportFile ? { reportFile } : {}),
        ...(verifier ? { verifier } : {}),
        ...(upstreamDeadlineMs === undefined ? {} : { upstreamDeadlineMs }),
      });
      say(io, `${paint(io, 'green', 'gw proxy')} on ${proxy.url}, forwarding to ${flags.upstream}`);
      say(
        io,
        `  report: ${reportFile ?? '(none: pass --report FILE)'}; signatures ${verifier ? 'verified' : 'not checked (pass --secret-env NAME)'}; Ctrl-C stops`,
      );
      await new Promise<void>((done) => {
        signals.once('SIGINT', () => done());
        signals.once('SIGTERM', () => done());
      });
      await proxy.stop();
      const drift = proxy.report.drift.length;
      const throttles = Object.values(proxy.report.observations).reduce((sum, seen) => sum + (seen.throttles?.count ?? 0), 0);
      say(
        io,
        `gw proxy stopped: ${proxy.report.exchanges} exchange(s), ${drift} kind(s) of drift, ${throttles} throttle(s), ${proxy.report.deadlines ?? 0} cut at the deadline${reportFile ? `; gw spec drift ${flags.report}` : ''}`,
      );
    });
}
