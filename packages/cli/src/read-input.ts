import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { CliIo } from './io.ts';

/** The text of FILE, or of standard input for `-`. */
export async function readInput(io: CliIo, file: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(isAbsolute(file) ? file : join(io.cwd, file), 'utf8');
  } catch (error) {
    throw new GwError(GW_ERROR_CODES.config, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, { file });
  }
}
