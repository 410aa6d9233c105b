// Lists the hand-written functions of packages/*/src and tools/*/src longer than a limit (default 80 lines), longest
// first: `node scripts/function-lengths.ts [limit]`. Generated files are left out. Exits 0 either way: it is a list to
// read (a tokenizer or decoder state machine may stand on it with a reason), not a gate.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const limit = Number(process.argv[2] ?? 80);
const files = execFileSync('git', ['ls-files', 'packages/*/src/**.ts', 'tools/*/src/**.ts'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => file !== '' && !file.includes('/generated/'));

/** The name a function is known by: its own, or that of the variable or member it is assigned to. */
function nameOf(node: ts.Node): string {
  const own = (node as { name?: ts.Node }).name;
  if (own) return own.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) return parent.name.getText();
  return '(anonymous)';
}

const rows: { lines: number; where: string; name: string }[] = [];
for (const file of files) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      if (last - first + 1 > limit) rows.push({ lines: last - first + 1, where: `${file}:${first}-${last}`, name: nameOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
rows.sort((a, b) => b.lines - a.lines);
for (const row of rows) console.log(`${String(row.lines).padStart(4)}  ${row.where}  ${row.name}`);
console.log(
  rows.length === 0 ? `no function over ${limit} lines in ${files.length} files` : `${rows.length} function(s) over ${limit} lines in ${files.length} files`,
);
