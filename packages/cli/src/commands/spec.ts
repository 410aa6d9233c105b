import type { Command } from 'commander';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { envFlagValue } from '../env-flag.ts';
import { EXIT_CODES } from '../exit-codes.ts';
import type { CliIo } from '../io.ts';
import { say } from '../output.ts';
import { checkHarFile } from '../spec/check-har-file.ts';
import { driftJson, printDriftSummary } from '../spec/drift-summary.ts';
import { readReport } from '../spec/read-report.ts';
import { writeSpecPatch } from '../spec/write-patch.ts';
import type { CommandContext } from './command-context.ts';

interface DriftFlags {
  json?: boolean;
  patch?: boolean;
  spec?: string;
  out: string;
}

interface CheckFlags {
  har: string;
  json?: boolean;
  report?: string;
  secretEnv?: string;
}

/** `--secret-env NAME`: the reference verifier with the secret in that variable, or a bad-flag error. */
function verifierFrom(io: CliIo, name: string | undefined) {
  if (name === undefined) return undefined;
  const secret = envFlagValue(io.env, '--secret-env', name);
  if ('problem' in secret) throw new GwError(GW_ERROR_CODES.config, secret.problem, {});
  return createHmacSha256Signer({ secret: secret.value });
}

/**
 * `gw spec drift REPORT [--json] [--patch]`: what a gw proxy report found; `gw spec check --har FILE`: the same check
 * of a recording. Both exit 13 when there is drift; throttles are shown, but are not drift (UNKNOWNS U50, U56).
 */
export function registerSpec(program: Command, { io, run }: CommandContext): Command {
  const spec = program.command('spec').description('check the spec against what the gateway does');
  spec
    .command('drift <report>')
    .description(
      'summarise a gw proxy report per operation (kind, field, count, first seen, redacted example) and the throttles it saw; exits 13 when there is drift (a throttle is not drift)',
    )
    .option('--json', 'print the drift entries as JSON (for CI)')
    .option('--patch', 'also write a proposed copy of the spec: new optional answer fields with the types seen, new values under x-gw-known-values')
    .option('--spec <file>', 'the spec --patch starts from (default: spec/v1/openapi.yaml inside the gw repository, else the one @gw/types ships)')
    .option('--out <file>', 'where --patch writes the proposed copy (never the spec itself)', 'openapi.proposed.yaml')
    .action(async (file: string, flags: DriftFlags) => {
      const report = await readReport(io, file);
      if (flags.json) io.stdout.write(driftJson(report));
      else printDriftSummary(io, report);
      if (flags.patch) await writeSpecPatch(io, report, { spec: flags.spec, out: flags.out, toStderr: flags.json === true });
      if (report.drift.length > 0) run.exitCode = EXIT_CODES.drift;
    });
  spec
    .command('check')
    .description("check a HAR recording (a browser's or another proxy's) against the spec as gw proxy checks live traffic; exits 13 when there is drift")
    .requiredOption('--har <file>', 'the HAR 1.2 recording; its /v1 requests are checked, other entries skipped')
    .option('--json', 'print the drift entries as JSON (for CI)')
    .option('--report <file>', 'also write the report gw spec drift reads (e.g. for --patch)')
    .option('--secret-env <name>', "verify answers' encryption_data with the reference signer and the secret in this environment variable")
    .action(async (flags: CheckFlags) => {
      const { report, skipped } = await checkHarFile(io, flags.har, verifierFrom(io, flags.secretEnv), flags.report);
      if (flags.json) io.stdout.write(driftJson(report));
      else {
        say(io, `${flags.har}: ${report.exchanges} /v1 exchange(s) checked, ${skipped} other entr${skipped === 1 ? 'y' : 'ies'} skipped`);
        printDriftSummary(io, report);
      }
      if (report.drift.length > 0) run.exitCode = EXIT_CODES.drift;
    });
  return spec;
}
