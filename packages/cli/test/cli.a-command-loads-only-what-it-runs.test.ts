// A `gw batch` process (a fleet's coordinator or worker) starts by loading gw: the commands it does not run, and the
// sandbox server behind the sandbox's defaults and reconciler, are not loaded, so each process starts sooner.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', 'src', 'bin.ts');

/** The module URLs `gw <args>` loads (from the packages' sources, as the tests run gw). */
function modulesLoadedBy(args: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'gw-modules-'));
  const hook = join(dir, 'hook.mjs');
  const out = join(dir, 'loaded.txt');
  writeFileSync(
    hook,
    `import { registerHooks } from 'node:module';\nimport { writeFileSync } from 'node:fs';\nconst seen = [];\nregisterHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });\nprocess.on('exit', () => writeFileSync(${JSON.stringify(out)}, seen.join('\\n')));\n`,
  );
  const run = spawnSync(process.execPath, ['--conditions=@gw/source', `--import=${hook}`, BIN, ...args], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n');
}

const from = (urls: string[], part: string): string[] => urls.filter((url) => url.includes(part));

describe('what a gw command loads', () => {
  it('gw batch loads the batch runner and the client, not the sandbox server, the proxy or the notifications receiver', () => {
    const loaded = modulesLoadedBy(['batch', '--help']);
    expect(from(loaded, '/packages/batch/src/').length).toBeGreaterThan(0);
    expect(from(loaded, '/packages/client/src/').length).toBeGreaterThan(0);
    expect(from(loaded, '/packages/sandbox/src/server/')).toEqual([]);
    expect(from(loaded, '/packages/proxy/')).toEqual([]);
    expect(from(loaded, '/packages/notifications/')).toEqual([]);
  });

  it('help with no command loads every command, so it lists them all', () => {
    const loaded = modulesLoadedBy(['--help']);
    for (const command of ['batch', 'sandbox', 'proxy', 'listen']) expect(from(loaded, `/packages/cli/src/commands/${command}.ts`)).toHaveLength(1);
  });
});
