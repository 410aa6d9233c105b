// Every refusal code the sandbox answers with (E001-E005, 1001, the per-order E2xx/E3xx, E401) is written only in its
// table, src/refusals/refusal-codes.ts: a code typed anywhere else would be a second table. (No function over 80
// lines: tools/release-check's source test, over every package.)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
const TABLE = join('refusals', 'refusal-codes.ts');

/** Every hand-written .ts file under src (generated/ left out). */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The lines outside comments, of every source file but the table, that `pattern` finds, as `file: line`. */
function outsideTheTable(pattern: RegExp): string[] {
  return sourceFiles()
    .filter((file) => relative(SRC, file) !== TABLE)
    .flatMap((file) => {
      const code = readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line));
      return code.filter((line) => pattern.test(line)).map((line) => `${relative(SRC, file)}: ${line.trim()}`);
    });
}

/** Code literals a refusal of a whole request would carry (`'E003'`, `E004:`, `1001:`). */
const REFUSAL_CODE_LITERAL = /(['"`])(E00\d|1001)\1|\b(E00\d|1001):/;
/** A refusal code at the start of a `<code>:<message>` text (`'E401:no subscription…'`, `` `E205:… ``). */
const CODE_TEXT = /(['"`])E\d{3}:/;

describe('the sandbox source', () => {
  it('writes E001-E005 and 1001 only in the refusal table', () => {
    expect(REFUSAL_CODE_LITERAL.test("throw new SandboxRefusal('E003', 'encryption_data does not verify')")).toBe(true);
    expect(REFUSAL_CODE_LITERAL.test("result_info: '1001:order_no already used on this account'")).toBe(true);
    expect(outsideTheTable(REFUSAL_CODE_LITERAL)).toEqual([]);
  });

  it('writes every E-code of its answers only in the refusal table', () => {
    expect(CODE_TEXT.test("error_message: 'E401:no subscription with this recurring_id and contract_name'")).toBe(true);
    expect(CODE_TEXT.test('return ORDER_ERRORS.notFound;')).toBe(false);
    expect(outsideTheTable(CODE_TEXT)).toEqual([]);
  });
});
