import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packAll, plainNpmEnv, publishable, repoRoot } from '../pack.ts';

describe('the packed packages, installed with plain npm outside the workspace', () => {
  it('install, resolve as ESM with types, and run a consumer against the sandbox (Node 24, and 22 when present)', () => {
    const work = mkdtempSync(join(tmpdir(), 'gw-consumer-'));
    const tarballs = packAll(join(work, 'tarballs'));
    expect(tarballs).toHaveLength(publishable().length);
    for (const tarball of tarballs) {
      const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
      expect(listing, tarball).toContain('package/dist/index.js');
      expect(listing, tarball).toContain('package/dist/index.d.ts');
      expect(listing, tarball).toContain('package/README.md');
      expect(listing, tarball).not.toContain('package/src/');
      expect(listing, tarball).not.toContain('package/test/');
      expect(unresolvedSourceMaps(tarball), tarball).toEqual([]);
    }
    const typesListing = execFileSync('tar', ['-tzf', tarballs.find((t) => /gw-types-/.test(t))!], { encoding: 'utf8' });
    expect(typesListing).toContain('package/UNKNOWNS.md');
    expect(typesListing).toContain('package/openapi.yaml');
    const project = join(work, 'project');
    cpSync(join(import.meta.dirname, '../consumer'), project, { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // execFileSync blocks vitest's own timeout, so every child gets one; npm's fetches get a timeout and retries too.
    const install = () =>
      execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--fetch-timeout=60000', '--fetch-retries=4', ...tarballs], {
        cwd: project,
        stdio: 'pipe',
        encoding: 'utf8',
        timeout: 240_000,
        env: plainNpmEnv(),
      });
    try {
      install();
    } catch {
      install(); // one more go after a stalled registry connection
    }
    expect(unknownsCitationsWithoutTheirLink(join(project, 'node_modules/@gw'))).toEqual([]);
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/@gw/client/package.json'), 'utf8'));
    expect(installed.engines.node).toBe('^22.18.0 || ^24.0.0');
    expect(existsSync(join(project, 'node_modules/.bin/gw'))).toBe(true);

    const run = (node: string) => JSON.parse(execFileSync(node, ['consumer.mjs'], { cwd: project, encoding: 'utf8', timeout: 60_000 }).trim());
    const expected = {
      order_status: '1',
      capture_status: '1',
      batch: { succeeded: 60, failed: 0, rejected: 0, unknown: 0 },
      limit: 50,
      decoded: 'alternative',
      errorClass: 'function',
    };
    expect(run(process.execPath)).toMatchObject(expected);
    const node22 = join(repoRoot, '.cache/node22/node_modules/node/bin/node');
    // test:all installs Node 22 before any test runs (scripts/run-tests.ts); a local run without it says so rather than pretending.
    if (!existsSync(node22) && process.env.CI) throw new Error('Node 22 missing: run `pnpm test:node22` first');
    if (existsSync(node22)) expect(run(node22)).toMatchObject({ ...expected, node: expect.stringMatching(/^v22\./) });

    // The installed CLI works too.
    const help = execFileSync(join(project, 'node_modules/.bin/gw'), ['--help'], { cwd: project, encoding: 'utf8', timeout: 60_000 });
    expect(help).toContain('Exit status:');
  }, 600_000);
});

/** Source maps in a tarball whose sources are neither shipped beside them nor carried inside them (`sourcesContent`). */
function unresolvedSourceMaps(tarball: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'gw-tarball-'));
  execFileSync('tar', ['-xzf', tarball, '-C', dir]);
  const problems: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.map')) {
        const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
        map.sources.forEach((source, i) => {
          if (typeof map.sourcesContent?.[i] !== 'string' && !existsSync(resolve(dirname(file), source)))
            problems.push(`${file.slice(dir.length + 1)} -> ${source}`);
        });
      }
    }
  };
  walk(dir);
  return problems;
}

/** Installed READMEs that cite an UNKNOWNS point (`U07`) without a link that reaches @gw/types's UNKNOWNS.md. */
function unknownsCitationsWithoutTheirLink(scope: string): string[] {
  mkdirSync(scope, { recursive: true });
  const problems: string[] = [];
  for (const name of readdirSync(scope)) {
    const readme = join(scope, name, 'README.md');
    if (!existsSync(readme)) continue;
    const text = readFileSync(readme, 'utf8');
    const cited = new Set(text.match(/\bU\d{2}\b/g) ?? []);
    if (cited.size === 0) continue;
    const link = /\]\(((?:\.\.\/types\/|\.\/)UNKNOWNS\.md)(?:#[^)]*)?\)/.exec(text)?.[1];
    const target = link ? resolve(scope, name, link) : null;
    if (!target || !existsSync(target)) {
      problems.push(`@gw/${name}: cites ${[...cited].join(', ')} with no link to UNKNOWNS.md that resolves once installed`);
      continue;
    }
    const unknowns = readFileSync(target, 'utf8');
    for (const point of cited) if (!unknowns.includes(`### ${point}:`)) problems.push(`@gw/${name}: cites ${point}, which UNKNOWNS.md does not have`);
  }
  return problems;
}
