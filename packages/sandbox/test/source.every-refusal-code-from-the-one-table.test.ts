// Every refusal code the sandbox answers with (E001-E005, 1001, the per-order E2xx/E3xx, E401) is written only in
// src/refusals/refusal-codes.ts: a code typed anywhere else is a second table.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

/** Every hand-written .ts file under src (generated/ left out). */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A refusal code at the start of a `<code>:<message>` text (`'E401:no subscription…'`, `` `E205:… ``). */
const CODE_TEXT = /(['"`])E\d{3}:/;

describe('the sandbox source', () => {
  it('writes every E-code of its answers only in the refusal-code table', () => {
    expect(CODE_TEXT.test("error_message: 'E401:no subscription with this recurring_id and contract_name'")).toBe(true);
    expect(CODE_TEXT.test('return ORDER_ERRORS.notFound;')).toBe(false);
    const outside = sourceFiles()
      .filter((file) => relative(SRC, file) !== join('refusals', 'refusal-codes.ts'))
      .flatMap((file) => {
        const code = readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line));
        return code.filter((line) => CODE_TEXT.test(line)).map((line) => `${relative(SRC, file)}: ${line.trim()}`);
      });
    expect(outside).toEqual([]);
  });
});
