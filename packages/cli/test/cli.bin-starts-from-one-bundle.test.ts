// The installed `gw` command (bin/gw.js) runs the bundled CLI: a command loads a few files of dist/bundle, not the
// hundreds of modules of the packages and their dependencies, so each `gw batch` of a fleet starts sooner. Runs the
// built package, as a team's install does (`pnpm build` first; test:all builds before testing).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE = join(import.meta.dirname, '..');
const BIN = join(PACKAGE, 'bin', 'gw.js');
const BUNDLE = join(PACKAGE, 'dist', 'bundle');

/** The file: URLs `gw <args>` loads through bin/gw.js, and how it exited. */
function filesLoadedBy(args: string[]): { status: number | null; stdout: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bundle-'));
  const hook = join(dir, 'hook.mjs');
  const out = join(dir, 'loaded.txt');
  writeFileSync(
    hook,
    `import { registerHooks } from 'node:module';\nimport { writeFileSync } from 'node:fs';\nconst seen = [];\nregisterHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });\nprocess.on('exit', () => writeFileSync(${JSON.stringify(out)}, seen.join('\\n')));\n`,
  );
  const run = spawnSync(process.execPath, [`--import=${hook}`, BIN, ...args], { encoding: 'utf8', cwd: dir });
  return {
    status: run.status,
    stdout: run.stdout,
    files: readFileSync(out, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:')),
  };
}

describe('the gw command runs one bundle', () => {
  it('is built: dist/bundle/gw.js exists (run pnpm build first)', () => {
    expect(existsSync(join(BUNDLE, 'gw.js'))).toBe(true);
  });

  it('gw batch --help loads bin/gw.js, package.json (the version) and a few files of dist/bundle, nothing from node_modules', () => {
    const run = filesLoadedBy(['batch', '--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Usage: gw batch');
    const own = [pathToFileURL(BIN).href, pathToFileURL(join(PACKAGE, 'package.json')).href];
    const outside = run.files.filter((url) => !own.includes(url) && !url.startsWith(pathToFileURL(BUNDLE).href));
    expect(outside).toEqual([]);
    expect(run.files.length).toBeLessThan(26); // 25 since the telemetry gate (@gw/types) became a chunk the client shares with the servers
  });

  it('gw --version prints the package version from the bundle, loading nothing from node_modules (no OpenTelemetry API before a first use)', () => {
    const { version } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { version: string };
    const run = filesLoadedBy(['--version']);
    expect(run.stdout.trim()).toBe(version);
    expect(run.files.filter((url) => url.includes('/node_modules/'))).toEqual([]);
  });

  it("keeps the compiled bundle in Node's compile cache, so the next command does not compile it again", () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-compile-cache-'));
    const env = { ...process.env, TMPDIR: dir, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined };
    const run = spawnSync(process.execPath, [BIN, 'batch', '--help'], { encoding: 'utf8', env });
    expect(run.status).toBe(0);
    // The cache is Node's own (a directory per Node version, a file per compiled module): the bundle's files are in it.
    const cached = readdirSync(join(dir, 'node-compile-cache'), { recursive: true });
    expect(cached.length).toBeGreaterThan(1);
  });
});
