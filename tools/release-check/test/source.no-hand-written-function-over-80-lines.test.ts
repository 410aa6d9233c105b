// What keeps the packages' source readable: no hand-written function over 80 lines in packages/*/src or tools/*/src
// (split by job instead), as scripts/function-lengths.ts lists them.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** What scripts/function-lengths.ts prints for `limit`, its lines. */
function functionLengths(limit: number): string[] {
  return execFileSync(process.execPath, ['scripts/function-lengths.ts', String(limit)], { cwd: ROOT, encoding: 'utf8' })
    .trim()
    .split('\n');
}

describe('the hand-written source', () => {
  it('lists the functions over a limit when there are some (the check can fail)', () => {
    const over10 = functionLengths(10);
    expect(over10.at(-1)).toMatch(/^\d+ function\(s\) over 10 lines in \d+ files$/);
    expect(over10.length).toBeGreaterThan(10);
  });

  it('has no function over 80 lines', () => {
    expect(functionLengths(80)).toEqual([expect.stringMatching(/^no function over 80 lines in \d+ files$/)]);
  });
});
