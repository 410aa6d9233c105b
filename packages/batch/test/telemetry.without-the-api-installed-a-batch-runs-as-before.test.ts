// An application that did not install @opentelemetry/api (an optional peer): a capture batch in a process where it
// cannot be found asks for it (once, loaded at a run's start; the client may ask too), gets nothing, and runs as
// before: every order captured, the same result.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorisedOrders } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.stop();
});

/** Runs test/fixtures/batch-child.ts with `--import` of `preload` (when given); its exit code, stdout and stderr. */
function batchChild(env: Record<string, string>, preload: string | null): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = ['--conditions=@gw/source', ...(preload ? ['--import', preload] : []), join(import.meta.dirname, 'fixtures', 'batch-child.ts')];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('a batch without @opentelemetry/api installed', () => {
  it('asks for it, finds none, and captures every order as it does with the API present', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-no-otel-'));
    const runs = [];
    for (const preload of [join(import.meta.dirname, 'fixtures', 'without-otel-api.mjs'), null]) {
      const file = join(dir, `orders-${runs.length}.json`);
      writeFileSync(file, JSON.stringify(await authorisedOrders(sandbox, 60)));
      runs.push(await batchChild({ SANDBOX_URL: sandbox.url, ORDERS: file, JOURNAL: join(dir, `j-${runs.length}.jsonl`) }, preload));
    }
    const [without, withApi] = runs;
    expect(without!.code, without!.stderr).toBe(0);
    expect(withApi!.code, withApi!.stderr).toBe(0);
    // Asked for, so it was really hidden: a package that imported it statically would have failed to load.
    expect(without!.stderr).toContain('asked for @opentelemetry/api');
    expect(JSON.parse(without!.stdout)).toEqual({ counts: { succeeded: 60, failed: 0, rejected: 0, unknown: 0 }, throttled: 0 });
    expect(JSON.parse(withApi!.stdout)).toEqual(JSON.parse(without!.stdout));
  });
});
