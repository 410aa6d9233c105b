import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '../../..');
const main = join(repoRoot, 'tools/codegen/src/main.ts');

function runCheck(out: string) {
  return spawnSync(process.execPath, [main, '--check', '--out', out], { encoding: 'utf8' });
}

describe('pnpm generate --check', () => {
  it('passes on the committed output, then fails naming the file once a generated file is edited by hand', () => {
    const out = mkdtempSync(join(tmpdir(), 'gw-check-'));
    try {
      for (const dir of ['packages/types/src/generated', 'packages/client/src/generated', 'packages/sandbox/src/generated', 'packages/types/UNKNOWNS.md'])
        cpSync(join(repoRoot, dir), join(out, dir), { recursive: true });
      const clean = runCheck(out);
      expect(clean.stderr).toBe('');
      expect(clean.status).toBe(0);

      const file = join(out, 'packages/types/src/generated/operations.gen.ts');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"limit": 50', '"limit": 55'));
      writeFileSync(join(out, 'packages/types/src/generated/extra.gen.ts'), 'export {};\n');
      // The copy of UNKNOWNS.md that @gw/types ships is generated too: a hand edit of it is drift.
      const unknowns = join(out, 'packages/types/UNKNOWNS.md');
      writeFileSync(unknowns, readFileSync(unknowns, 'utf8').replace('### U40', '### U40 (edited)'));
      const drifted = runCheck(out);
      expect(drifted.status).toBe(1);
      expect(drifted.stderr).toContain('changed: packages/types/src/generated/operations.gen.ts');
      expect(drifted.stderr).toContain('stale:   packages/types/src/generated/extra.gen.ts');
      expect(drifted.stderr).toContain('changed: packages/types/UNKNOWNS.md');

      execFileSync(process.execPath, [main, '--out', out]);
      expect(runCheck(out).status).toBe(0);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
