import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packAll, publishable } from '../pack.ts';

const run = promisify(execFile);

/** Exports of files that are not modules (`@gw/types/openapi.yaml`): shipped for their path, with no types to check. */
function fileExports(tarball: string): string[] {
  const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as { exports?: Record<string, unknown> };
  return Object.entries(manifest.exports ?? {})
    .filter(([, target]) => typeof target === 'string' && !/\.(?:m?js|json)$/.test(target))
    .map(([subpath]) => subpath);
}
const attw = join(import.meta.dirname, '../node_modules/.bin/attw');

describe('every packed tarball, as npm would publish it', () => {
  let work: string;
  let tarballs: string[];

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'gw-lint-'));
    tarballs = packAll(join(work, 'tarballs'));
    expect(tarballs).toHaveLength(publishable().length);
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('publint: no error, warning or suggestion', async () => {
    const found: string[] = [];
    for (const tarball of tarballs) {
      const bytes = readFileSync(tarball);
      const { messages, pkg } = await publint({
        pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer },
        level: 'suggestion',
        strict: true,
      });
      for (const message of messages) found.push(`${tarball}: ${message.type} ${formatMessage(message, pkg) ?? message.code}`);
    }
    expect(found).toEqual([]);
  }, 60_000);

  // The packages are ESM only (Node 22 and 24, `"type": "module"`, no `require` condition): attw's esm-only profile
  // checks every ESM resolution mode (node16 from ESM, bundler) and skips node10 and require() from CommonJS.
  it('@arethetypeswrong/cli (esm-only profile): no problem in any resolution mode', async () => {
    const results = await Promise.all(
      tarballs.map(async (tarball) => {
        const files = fileExports(tarball);
        const exclude = files.length > 0 ? ['--exclude-entrypoints', ...files] : [];
        const { stdout } = await run(attw, [tarball, '--profile', 'esm-only', '--format', 'json', ...exclude], { maxBuffer: 64 * 1024 * 1024 }).catch(
          (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
        );
        const report = JSON.parse(stdout) as { analysis: { problems: { kind: string; entrypoint?: string; resolutionKind?: string }[] } };
        return report.analysis.problems
          .filter((p) => p.resolutionKind !== 'node10' && p.resolutionKind !== 'node16-cjs')
          .map((p) => `${tarball}: ${p.kind} ${p.entrypoint ?? ''} ${p.resolutionKind ?? ''}`);
      }),
    );
    expect(results.flat()).toEqual([]);
  }, 120_000);

  it('ship no declaration maps (their sources are not shipped) and no sources', () => {
    for (const tarball of tarballs) {
      const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
      expect(listing, tarball).not.toMatch(/\.d\.ts\.map$/m);
      expect(listing, tarball).not.toMatch(/^package\/src\//m);
    }
  });
});
