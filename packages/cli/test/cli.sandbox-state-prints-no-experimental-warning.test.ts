// `gw sandbox --state FILE` keeps its state with node:sqlite, which Node 22 announces as an experimental feature on
// stderr: that is gw's business, not the user's, so gw drops that warning, and only that one. Runs the installed
// command (bin/gw.js and its bundle: `pnpm build` first) on Node 22, as a team on 22 LTS runs it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '../../..');
const node22 = join(repoRoot, '.cache/node22/node_modules/node/bin/node');
const BIN = join(import.meta.dirname, '..', 'bin', 'gw.js');

/**
 * Runs `gw sandbox --state FILE` on `node` until it says it keeps its state (and `until` holds of what it printed on
 * stderr), then Ctrl-C; what it printed and its exit status.
 */
async function sandboxWithState(
  node: string,
  env: Record<string, string> = {},
  until = (_stderr: string) => true,
): Promise<{ stdout: string; stderr: string; status: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-state-warning-'));
  const child = spawn(node, [BIN, 'sandbox', '--port', '0', '--state', join(dir, 'state.db')], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code))); // 'close': once stderr is read to its end
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gw sandbox did not start in 20 s: ${stderr}`)), 20_000);
    const check = () => stdout.includes('state kept in') && until(stderr) && (clearTimeout(timer), resolve());
    child.stdout.on('data', (chunk: Buffer) => ((stdout += String(chunk)), check()));
    child.stderr.on('data', (chunk: Buffer) => ((stderr += String(chunk)), check()));
    void exited.then(() => (clearTimeout(timer), resolve()));
  });
  child.kill('SIGINT');
  return { stdout, stderr, status: await exited };
}

// Node 22 is installed by `pnpm test:node22` (test:all does it first); CI must have it, a local run without it skips it.
const with22 = existsSync(node22) || Boolean(process.env.CI);
const nodes = [{ name: `this Node (${process.versions.node})`, path: process.execPath }, ...(with22 ? [{ name: 'Node 22', path: node22 }] : [])];

describe('gw sandbox --state prints no experimental warning of its own', () => {
  it.skipIf(!with22)(
    'is tested where it matters: Node 22 itself warns that node:sqlite is experimental (skipped without Node 22: pnpm test:node22 installs it)',
    () => {
      expect(existsSync(node22), 'Node 22 missing: run `pnpm test:node22` first').toBe(true);
      const plain = spawnSync(node22, ['-e', "require('node:sqlite')"], { encoding: 'utf8' });
      expect(plain.stderr).toContain('ExperimentalWarning: SQLite is an experimental feature');
    },
  );

  it.each(nodes)(
    'on $name: the sandbox starts with its state file and stderr has no ExperimentalWarning',
    async ({ path }) => {
      expect(existsSync(join(import.meta.dirname, '..', 'dist', 'bundle', 'gw.js')), 'run pnpm build first').toBe(true);
      const run = await sandboxWithState(path);
      expect(run.stdout).toContain('gw sandbox listening on http://127.0.0.1:');
      expect(run.stdout).toContain('state kept in');
      expect(run.stderr).not.toContain('ExperimentalWarning');
      expect(run.stderr).not.toContain('--trace-warnings');
    },
    30_000,
  );

  it.each(nodes)(
    'on $name: every other warning still reaches the user (another experimental feature, a deprecation)',
    async ({ path }) => {
      // A module loaded with the program (as a user's --import or a dependency would be) warns once gw is running: at
      // gw's first line of output, after gw has set its filter.
      const dir = mkdtempSync(join(tmpdir(), 'gw-other-warnings-'));
      const hook = join(dir, 'warn.mjs');
      writeFileSync(
        hook,
        `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (...args) => {
  process.stdout.write = write;
  process.emitWarning('Frobnication is an experimental feature', 'ExperimentalWarning');
  process.emitWarning('old thing', { type: 'DeprecationWarning', code: 'DEP_GW_TEST' });
  return write(...args);
};
`,
      );
      const run = await sandboxWithState(path, { NODE_OPTIONS: `--import=${hook}` }, (stderr) => stderr.includes('old thing'));
      expect(run.stdout).toContain('state kept in');
      expect(run.stderr).toContain('ExperimentalWarning: Frobnication is an experimental feature');
      expect(run.stderr).toContain('[DEP_GW_TEST] DeprecationWarning: old thing');
      expect(run.stderr).not.toContain('SQLite');
    },
    30_000,
  );
});
