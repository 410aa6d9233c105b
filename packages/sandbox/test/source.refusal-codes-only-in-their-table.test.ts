// The codes of requests refused as a whole are written only in their table (src/refusals/refusal-codes.ts). (No function over
// 80 lines: tools/release-check's source test, over every package.)
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

/** Code literals a refusal would carry (`'E003'`, `E004:`, `1001:`), outside comments. */
const REFUSAL_CODE_LITERAL = /(['"`])(E00\d|1001)\1|\b(E00\d|1001):/;

describe('the sandbox source', () => {
  it('writes E001-E005 and 1001 only in the refusal table', () => {
    expect(REFUSAL_CODE_LITERAL.test("throw new SandboxRefusal('E003', 'encryption_data does not verify')")).toBe(true);
    expect(REFUSAL_CODE_LITERAL.test("result_info: '1001:order_no already used on this account'")).toBe(true);
    const outside = sourceFiles()
      .filter((file) => !file.endsWith('refusal-codes.ts'))
      .flatMap((file) => {
        const code = readFileSync(file, 'utf8').split('\n').filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line));
        return code.filter((line) => REFUSAL_CODE_LITERAL.test(line)).map((line) => `${relative(SRC, file)}: ${line.trim()}`);
      });
    expect(outside).toEqual([]);
  });
});
