import type { Command } from 'commander';
import { EXIT_CODES } from '../exit-codes.ts';
import type { CliIo } from '../io.ts';
import { driftJson, printDriftSummary } from '../spec/drift-summary.ts';
import { readReport } from '../spec/read-report.ts';
import { writeSpecPatch } from '../spec/write-patch.ts';

interface DriftFlags {
  json?: boolean;
  patch?: boolean;
  spec: string;
  out: string;
}

/** `gw spec drift REPORT [--json] [--patch]`: what a gw proxy report found; exit status 13 when there is drift. */
export function registerSpec(program: Command, io: CliIo, run: { exitCode: number }): Command {
  const spec = program.command('spec').description('check the spec against what the gateway does');
  spec
    .command('drift <report>')
    .description('summarise a gw proxy report per operation (kind, field, count, first seen, redacted example); exits 13 when there is drift')
    .option('--json', 'print the drift entries as JSON (for CI)')
    .option('--patch', 'also write a proposed copy of the spec: new optional answer fields with the types seen, new values under x-gw-known-values')
    .option('--spec <file>', 'the spec --patch starts from', 'spec/v1/openapi.yaml')
    .option('--out <file>', 'where --patch writes the proposed copy (never the spec itself)', 'openapi.proposed.yaml')
    .action(async (file: string, flags: DriftFlags) => {
      const report = await readReport(io, file);
      if (flags.json) io.stdout.write(driftJson(report));
      else printDriftSummary(io, report);
      if (flags.patch) await writeSpecPatch(io, report, { spec: flags.spec, out: flags.out, toStderr: flags.json === true });
      if (report.drift.length > 0) run.exitCode = EXIT_CODES.drift;
    });
  return spec;
}
