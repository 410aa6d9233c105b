// gw on a Node.js it does not support (the machines' Node 20) must say so plainly, not die inside undici.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { nodeTooOld } from '../src/node-version.ts';

const src = join(import.meta.dirname, '../src');

/** A Node.js binary older than 22.18 on this machine (the system Node 20), or null. */
function oldNode(): { path: string; version: string } | null {
  for (const path of ['/usr/bin/node', '/usr/local/bin/node', '/bin/node']) {
    if (!existsSync(path)) continue;
    const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    if (nodeTooOld(version) !== null) return { path, version };
  }
  return null;
}

/** The package's sources compiled as the build compiles them (tsconfig.build.json), into a fresh folder. */
function compiledSources(): string {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(src, '../tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(String(d.messageText));
      },
    },
  );
  const out = mkdtempSync(join(tmpdir(), 'gw-cli-dist-'));
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }');
  const walk = (dir: string, rel: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        mkdirSync(join(out, rel, entry.name), { recursive: true });
        walk(join(dir, entry.name), join(rel, entry.name));
      } else if (entry.name.endsWith('.ts')) {
        const js = ts.transpileModule(readFileSync(join(dir, entry.name), 'utf8'), {
          compilerOptions: { ...config!.options, sourceMap: false, declaration: false },
          fileName: entry.name.replace(/\.ts$/, '.mts'),
        }).outputText; // .mts: an ES module, as package.json's "type" makes it
        writeFileSync(join(out, rel, entry.name.replace(/\.ts$/, '.js')), js);
      }
    }
  };
  walk(src, '');
  return out;
}

const old = oldNode();

describe('gw on a Node.js that is too old', () => {
  it('knows which versions are too old', () => {
    expect(nodeTooOld('20.20.2')).toContain('22.18 or newer');
    expect(nodeTooOld('22.17.1')).toContain('this is Node.js 22.17.1');
    expect(nodeTooOld('22.18.0')).toBeNull();
    expect(nodeTooOld('24.0.0')).toBeNull();
  });

  it.skipIf(old === null)(`the built bin run by the system Node (${old?.version}) says Node 22.18 is needed and exits ${EXIT_CODES.unsupportedNode}`, () => {
    const dist = compiledSources();
    for (const args of [['demo'], ['call', 'query', '--data', '-'], ['--help']]) {
      const run = spawnSync(old!.path, [join(dist, 'bin.js'), ...args], { encoding: 'utf8', input: '{}', timeout: 20_000 });
      expect(run.stderr).toContain('gw needs Node.js 22.18 or newer');
      expect(run.stderr).toContain(`this is Node.js ${old!.version}`);
      expect(run.stderr).not.toMatch(/TypeError|ERR_|at .*\.js:\d+/);
      expect(run.status).toBe(EXIT_CODES.unsupportedNode);
    }
  });

  it.skipIf(old === null)(
    `the installed command (bin/gw.js, run by npx gw) on the system Node (${old?.version}) says so and exits ${EXIT_CODES.unsupportedNode}, not a SyntaxError`,
    () => {
      const bin = join(src, '..', 'bin', 'gw.js');
      expect(existsSync(join(src, '..', 'dist', 'bundle', 'gw.js')), 'run pnpm build first').toBe(true);
      for (const args of [['--version'], ['demo'], ['--help']]) {
        const run = spawnSync(old!.path, [bin, ...args], { encoding: 'utf8', timeout: 20_000 });
        expect(run.stderr).toContain('gw needs Node.js 22.18 or newer');
        expect(run.stderr).toContain(`this is Node.js ${old!.version}`);
        expect(run.stderr).not.toMatch(/SyntaxError|TypeError|ERR_|at .*\.js:\d+/);
        expect(run.stdout).toBe('');
        expect(run.status).toBe(EXIT_CODES.unsupportedNode);
      }
    },
  );

  it('the bin on this Node.js runs the program', () => {
    const run = spawnSync(process.execPath, ['--conditions=@gw/source', join(src, 'bin.ts'), '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Exit status:');
    expect(run.stdout).toContain('11  this Node.js is too old');
  });
});
