import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkHar, type HarCheck } from '@gw/proxy';
import type { Verifier } from '@gw/signer-interface';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { CliIo } from '../io.ts';
import { whereJsonStopped } from '../json-input.ts';

/** Reads and checks a HAR file as `gw proxy` checks live traffic; writes the report to `reportFile` when given. */
export async function checkHarFile(io: CliIo, file: string, verifier: Verifier | undefined, reportFile: string | undefined): Promise<HarCheck> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new GwError(GW_ERROR_CODES.config, `cannot read the HAR file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, { file });
  }
  let har: unknown;
  try {
    har = JSON.parse(text);
  } catch (error) {
    // JSON.parse's own message quotes the text around the fault (a recording holds card data): only where it stopped.
    const at = whereJsonStopped(text, (error as Error).message);
    const where = at ? ` (it stops being JSON at line ${at.line}, column ${at.column})` : '';
    throw new GwError(GW_ERROR_CODES.decode, `${file} is not JSON${where}: give a HAR 1.2 recording`, { file, ...at });
  }
  const checked = await checkHar(har, verifier ? { verifier } : {});
  if (reportFile) await writeFile(resolve(io.cwd, reportFile), `${JSON.stringify(checked.report, null, 2)}\n`);
  return checked;
}
