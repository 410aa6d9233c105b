import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { redactReport, type DriftReport } from '@gw/proxy';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { CliIo } from '../io.ts';

/** Reads a drift report file, card data redacted (`gw proxy --report`, `gw spec check --report`), or says plainly what it is not. */
export async function readReport(io: CliIo, file: string): Promise<DriftReport> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new GwError(GW_ERROR_CODES.config, `cannot read the report ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, { file });
  }
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    throw new GwError(GW_ERROR_CODES.config, `${file} is not JSON: give the file gw proxy --report wrote`, { file });
  }
  if (!report || typeof report !== 'object' || (report as DriftReport).type !== 'gw-drift-report' || !Array.isArray((report as DriftReport).drift)) {
    throw new GwError(GW_ERROR_CODES.config, `${file} is not a gw drift report (type gw-drift-report): give the file gw proxy --report wrote`, { file });
  }
  // Whatever wrote the file (an older gw, a hand), what is shown of it passes the report redaction.
  return redactReport(report as DriftReport);
}
