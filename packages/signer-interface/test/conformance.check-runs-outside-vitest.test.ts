import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

/** Runs the fixture in a plain `node` child process (the Node running this test), optionally without vitest installed. */
type Outcome = { runError: { code: string; message: string } | null; reference: number; broken: number; brokenChecks: string[] };

async function checkInPlainNode(hideVitest: boolean): Promise<Outcome> {
  const args = [
    '--conditions=@gw/source',
    ...(hideVitest ? ['--import', './test/fixtures/without-vitest.hooks.mjs'] : []),
    './test/fixtures/check-conformance.plain-node.mjs',
  ];
  const { stdout } = await run(process.execPath, args, {
    cwd: packageRoot,
    timeout: 60_000,
    env: { ...process.env, GW_TRY_RUN: hideVitest ? '1' : '0' },
  });
  return JSON.parse(stdout) as Outcome;
}

describe('checkSignerConformance outside any test runner', () => {
  for (const hideVitest of [true, false]) {
    it(`runs in plain node ${hideVitest ? 'where vitest (an optional peer) is not installed' : 'with vitest installed'}: the reference signer passes, an always-true verifier fails`, async () => {
      const result = await checkInPlainNode(hideVitest);
      expect(result.reference).toBe(0);
      expect(result.broken).toBeGreaterThan(0);
      expect(result.brokenChecks).toContain('tamper-every-field');
      expect(result.brokenChecks).toContain('malformed-signatures');
      if (hideVitest) {
        expect(result.runError?.code).toBe('GW_CONFIG');
        expect(result.runError?.message).toMatch(/needs vitest.*checkSignerConformance/);
      }
    }, 90_000);
  }
});
