import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@gw/client';
import { startProxy } from '@gw/proxy';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { gw } from './io.ts';

const repoRoot = join(import.meta.dirname, '../../..');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

function run(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A program that only type-checks when the generated CaptureResponse has an optional string `settlement_window`. */
function usesNewField(typesFile: string): string {
  return [
    `import type { CaptureResponse } from '${typesFile}';`,
    "const answer: CaptureResponse = { return_status: '1', settlement_window: 'T+1' };",
    'const window: string | undefined = answer.settlement_window;',
    'const none: CaptureResponse = {};',
    'export { window, none };',
    '',
  ].join('\n');
}

async function driftReport(dir: string): Promise<void> {
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  await using sandbox = await startSandbox({ answerDrift: { capture: { add: { settlement_window: 'T+1', 'capture_orders[].capture_status': '5' } } } });
  await using proxy = await startProxy({ upstream: sandbox.url, reportFile: join(dir, 'drift.json'), verifier: signer });
  const client = createClient({ baseUrl: proxy.url, ...SANDBOX_DEFAULT_MERCHANT, signer, retry: { attempts: 1 } });
  const paid = await client.authoriseCard({
    order_no: 'PATCH-1',
    currency: 'USD',
    amount: '10.00',
    card: '4111111111111111',
    expiration_month: '12',
    expiration_year: '2031',
    security_code: '737',
  });
  await client
    .capture({ capture_orders: [{ transaction_id: paid.transaction_id!, order_no: 'PATCH-1', currency: 'USD', amount: '10.00' }] })
    .catch(() => undefined);
  await proxy.settled();
}

describe('gw spec drift REPORT --patch', () => {
  it('writes a proposed spec with the new answer field and known value; pnpm generate accepts it and its types carry the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-patch-'));
    await driftReport(dir);
    cpSync(join(repoRoot, 'spec/v1'), join(dir, 'spec/v1'), { recursive: true });
    const patched = await gw(['spec', 'drift', 'drift.json', '--patch', '--out', 'proposed.yaml'], { cwd: dir });
    expect(patched.err).toBe('');
    expect(patched.status).toBe(13);
    expect(patched.out).toContain('proposed spec: proposed.yaml (2 change(s) to spec/v1/openapi.yaml)');
    expect(patched.out).toContain('capture settlement_window: new optional field of type string (schema CaptureResponse)');
    expect(patched.out).toContain('capture capture_orders[].capture_status: new known value "5" (schema CaptureOrderResult)');
    // Only insertions: without the new field's lines and the new value's, the copy is the spec byte for byte.
    const [before, after] = [readFileSync(join(dir, 'spec/v1/openapi.yaml'), 'utf8'), readFileSync(join(dir, 'proposed.yaml'), 'utf8')];
    expect(after.replace(/^ {8}settlement_window:\n(?: {10}.*\n)+/m, '').replace(/^ {12}- "5"\n/m, '')).toBe(before);
    const doc = parse(after);
    expect(doc.components.schemas.CaptureResponse.properties.settlement_window).toMatchObject({ type: 'string' });
    expect(doc.components.schemas.CaptureResponse.required ?? []).not.toContain('settlement_window');
    expect(doc.components.schemas.CaptureOrderResult.properties.capture_status['x-gw-known-values']).toEqual(['1', '0', '5']);

    // In place of the spec, as a person would put it after review, then `pnpm generate`'s own entry point.
    writeFileSync(join(dir, 'spec/v1/openapi.yaml'), after);
    const generated = await run([join(repoRoot, 'tools/codegen/src/main.ts'), '--spec', join(dir, 'spec/v1/openapi.yaml'), '--out', dir], dir);
    expect(generated.output).toMatch(/^generate: \d+ files, \d+ written or removed/);
    expect(generated.code).toBe(0);

    const typesFile = 'packages/types/src/generated/types.gen.ts';
    writeFileSync(join(dir, 'uses-new-field.ts'), usesNewField(`./${typesFile}`));
    const tscArgs = (file: string) => [
      tsc,
      '--noEmit',
      '--strict',
      '--exactOptionalPropertyTypes',
      '--allowImportingTsExtensions',
      '--module',
      'nodenext',
      '--target',
      'es2022',
      file,
    ];
    const typed = await run(tscArgs('uses-new-field.ts'), dir);
    expect(typed.output).toBe('');
    expect(typed.code).toBe(0);
    // The same program against the repository's types (without the field) does not type-check: the check can fail.
    writeFileSync(join(dir, 'uses-old-types.ts'), usesNewField(join(repoRoot, typesFile)));
    const old = await run(tscArgs('uses-old-types.ts'), dir);
    expect(old.code).not.toBe(0);
    expect(old.output).toContain('settlement_window');
  }, 120_000);

  it('refuses to write over the spec itself (exit 2), and names a spec it cannot read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-patch-'));
    writeFileSync(
      join(dir, 'drift.json'),
      JSON.stringify({
        type: 'gw-drift-report',
        version: 1,
        upstream: 'x',
        startedAt: '',
        updatedAt: '',
        signaturesChecked: false,
        exchanges: 0,
        unchecked: 0,
        drift: [],
        observations: {},
      }),
    );
    const over = await gw(['spec', 'drift', 'drift.json', '--patch', '--spec', 'openapi.yaml', '--out', './openapi.yaml'], { cwd: dir });
    expect(over.status).toBe(2);
    expect(over.err).toContain('--out ./openapi.yaml is the spec itself');
    const missing = await gw(['spec', 'drift', 'drift.json', '--patch', '--spec', 'spec/v1/openapi.yaml'], { cwd: dir });
    expect(missing.status).toBe(2);
    expect(missing.err).toContain('cannot read the spec spec/v1/openapi.yaml: ENOENT');
  });
});
