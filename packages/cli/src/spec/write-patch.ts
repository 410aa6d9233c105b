import { readFile, writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { proposeSpecPatch, type DriftReport } from '@gw/proxy';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { CliIo } from '../io.ts';
import { paint, say, warn } from '../output.ts';
import { throttledOperations } from './drift-summary.ts';

/** Where `--patch` reads the spec and writes the proposed copy (paths as given, relative to the working directory). */
export interface PatchFiles {
  readonly spec: string;
  readonly out: string;
  /** Say what was written on stderr (stdout carries `--json`). */
  readonly toStderr?: boolean;
}

async function readSpec(io: CliIo, file: string): Promise<string> {
  try {
    return await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new GwError(GW_ERROR_CODES.config, `cannot read the spec ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}; run in the repository or pass --spec FILE`, { file });
  }
}

/**
 * `--patch`: writes a proposed copy of the spec (new optional answer fields with the types seen, new known values) for
 * a person to review, never the spec itself, and prints each change and the drift it leaves to a person.
 */
export async function writeSpecPatch(io: CliIo, report: DriftReport, files: PatchFiles): Promise<void> {
  const specPath = resolve(io.cwd, files.spec);
  const outPath = resolve(io.cwd, files.out);
  if (specPath === outPath) throw new GwError(GW_ERROR_CODES.config, `--out ${files.out} is the spec itself: the patch is a copy for a person to review; give another file`, { file: files.out });
  const patch = proposeSpecPatch(await readSpec(io, files.spec), report);
  await writeFile(outPath, patch.text);
  const tell = (text: string): void => (files.toStderr ? warn(io, text) : say(io, text));
  tell(paint(io, 'bold', `proposed spec: ${files.out} (${patch.changes.length} change(s) to ${files.spec})`));
  for (const change of patch.changes) {
    const what = change.kind === 'new-field' ? `new optional field of type ${change.value}` : `new known value ${JSON.stringify(change.value)}`;
    tell(`  ${change.operation} ${change.path}: ${what} (schema ${change.schema})`);
  }
  for (const left of patch.skipped) tell(`  not patched: ${left.operation} ${left.side} ${left.kind} ${left.path || '(whole message)'}: ${left.reason}`);
  for (const [operation, t] of throttledOperations(report)) tell(`  not patched: ${operation} ${t.count} throttle(s): rate limits are an open point (UNKNOWNS U50), not the shape of an answer`);
  const shown = relative(io.cwd, outPath) || files.out;
  tell(`review it (diff ${files.spec} ${shown}), copy it over ${files.spec}, then run pnpm generate`);
}
