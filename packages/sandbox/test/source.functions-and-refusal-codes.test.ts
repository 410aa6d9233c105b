// What keeps the sandbox's source readable: no hand-written function over 80 lines (split by job instead), and the
// codes of requests refused as a whole written only in their table (src/refusal-codes.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
const MAX_LINES = 80;

/** Every hand-written .ts file under src (generated/ left out). */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The functions of a source text longer than `max` lines, as `name (lines)`. */
function longFunctions(fileName: string, text: string, max = MAX_LINES): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      if (lines > max) found.push(`${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Code literals a refusal would carry (`'E003'`, `E004:`, `1001:`), outside comments. */
const REFUSAL_CODE_LITERAL = /(['"`])(E00\d|1001)\1|\b(E00\d|1001):/;

describe('the sandbox source', () => {
  it('finds a long function when there is one (the check can fail)', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    expect(longFunctions('planted.ts', `export function planted(): void {\n${body}\n}\n`)).toEqual([`planted (${MAX_LINES + 2} lines)`]);
    expect(longFunctions('short.ts', 'export function short(): number {\n  return 1;\n}\n')).toEqual([]);
  });

  it(`has no hand-written function over ${MAX_LINES} lines`, () => {
    const long = sourceFiles().flatMap((file) => longFunctions(file, readFileSync(file, 'utf8')).map((f) => `${relative(SRC, file)}: ${f}`));
    expect(long).toEqual([]);
  });

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
