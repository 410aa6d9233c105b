import { readFile, writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { proposeSpecPatch, type DriftReport } from '@gw/proxy';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { CliIo } from '../io.ts';
import { paint, say, warn } from '../output.ts';
import { throttledOperations } from './drift-summary.ts';
import { specSource, type SpecSource } from './spec-source.ts';

/** Where `--patch` reads the spec and writes the proposed copy (paths as given, relative to the working directory). */
export interface PatchFiles {
  /** `--spec`; when absent, the repository's spec inside the gw repository, else the one @gw/types ships. */
  readonly spec?: string | undefined;
  readonly out: string;
  /** Say what was written on stderr (stdout carries `--json`). */
  readonly toStderr?: boolean;
}

async function readSpec(spec: SpecSource): Promise<string> {
  try {
    return await readFile(spec.path, 'utf8');
  } catch (error) {
    const hint = spec.from === 'flag' ? '' : '; pass --spec FILE';
    throw new GwError(GW_ERROR_CODES.config, `cannot read the spec ${spec.shown}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}${hint}`, { file: spec.path });
  }
}

/** What a person does with the proposed copy: in the repository, put it over the spec; elsewhere, send it to its keepers. */
function nextStep(spec: SpecSource, out: string): string {
  if (spec.from !== 'package') return `review it (diff ${spec.shown} ${out}), copy it over ${spec.shown}, then run pnpm generate`;
  return `review it (diff ${spec.path} ${out}), then send it to the team that keeps the gw spec: copied over spec/v1/openapi.yaml in the gw repository, pnpm generate and a release bring the change to @gw/types`;
}

/**
 * `--patch`: writes a proposed copy of the spec (new optional answer fields with the types seen, new known values) for
 * a person to review, never the spec itself, and prints each change and the drift it leaves to a person.
 */
export async function writeSpecPatch(io: CliIo, report: DriftReport, files: PatchFiles): Promise<void> {
  const spec = specSource(io.cwd, files.spec);
  const outPath = resolve(io.cwd, files.out);
  if (spec.path === outPath) throw new GwError(GW_ERROR_CODES.config, `--out ${files.out} is the spec itself: the patch is a copy for a person to review; give another file`, { file: files.out });
  const patch = proposeSpecPatch(await readSpec(spec), report);
  await writeFile(outPath, patch.text);
  const tell = (text: string): void => (files.toStderr ? warn(io, text) : say(io, text));
  tell(paint(io, 'bold', `proposed spec: ${files.out} (${patch.changes.length} change(s) to ${spec.shown})`));
  for (const change of patch.changes) {
    const what = change.kind === 'new-field' ? `new optional field of type ${change.value}` : `new known value ${JSON.stringify(change.value)}`;
    tell(`  ${change.operation} ${change.path}: ${what} (schema ${change.schema})`);
  }
  for (const left of patch.skipped) tell(`  not patched: ${left.operation} ${left.side} ${left.kind} ${left.path || '(whole message)'}: ${left.reason}`);
  for (const [operation, t] of throttledOperations(report)) tell(`  not patched: ${operation} ${t.count} throttle(s): rate limits are an open point (UNKNOWNS U50), not the shape of an answer`);
  const shown = relative(io.cwd, outPath) || files.out;
  tell(nextStep(spec, shown));
}
