import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { copyRepoForSpecChange, repoRoot, writeWorkspaceTsconfig } from './support/scratch-repo.ts';
import { addBalanceOperationAndField, USES_NEW_OPERATION } from './support/new-operation.ts';

const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

function run(args: string[], cwd: string, input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

// A team adds an operation and a field to a copy of the spec, runs `pnpm generate`, and edits nothing else.
describe('a spec change needs no hand edit', () => {
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'gw-spec-change-'));
    copyRepoForSpecChange(scratch);
    const specPath = join(scratch, 'spec/v1/openapi.yaml');
    const doc = parse(readFileSync(specPath, 'utf8'));
    addBalanceOperationAndField(doc);
    writeFileSync(specPath, stringify(doc, { lineWidth: 0 }));
    // `pnpm generate` as a team runs it: the generated files, and the new operation's examples written from the spec.
    const generated = await run([join(repoRoot, 'tools/codegen/src/main.ts'), '--spec', specPath, '--out', scratch], scratch);
    expect(generated.stderr).toBe('');
    expect(generated.stdout).toContain('generate: wrote spec/v1/examples/balance.response.json');
    writeFileSync(join(scratch, 'packages/client/uses-new-operation.ts'), USES_NEW_OPERATION);
  }, 60_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('the client gets a typed, documented method for the new operation', () => {
    const methods = readFileSync(join(scratch, 'packages/client/src/generated/methods.gen.ts'), 'utf8');
    expect(methods).toContain('balance(request: RequestInput<T.BalanceRequest>, options?: CallOptions): Promise<T.BalanceResponse>;');
    expect(methods).toContain('Read the available balance.');
    expect(methods).toContain('`POST /v1/balance`');
  });

  it('the whole workspace type-checks, with a program using the new method and field', async () => {
    const tsconfig = writeWorkspaceTsconfig(scratch, ['packages/client/uses-new-operation.ts']);
    const result = await run([tsc, '-p', tsconfig], scratch);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('the program calls the new operation against the sandbox, which answers it signed from the spec', async () => {
    const result = await run(['--conditions=@gw/source', 'packages/client/uses-new-operation.ts'], scratch);
    expect(result.stderr).toBe('');
    // The operation's own example (250.00), not its shared amount schema's (10.00); the new result field's format.
    expect(JSON.parse(result.stdout)).toEqual({ amount: '1234.50', reserved: '250.00', currency: 'USD', reference: 'MR-7', settlement: '2026-01-01' });
  }, 60_000);

  it('a `format` the spec states is checked by the validator (date), not a schema that fails to compile', async () => {
    const program =
      "import { RecordValidator } from '@gw/types';\nconst v = new RecordValidator();\nconsole.log(JSON.stringify([v.problems('CaptureOrderResult', { settlement_date: '2026-01-01' }).length, v.problems('CaptureOrderResult', { settlement_date: '01/02/2026' }).map((p) => p.field)]));\n";
    writeFileSync(join(scratch, 'packages/types/checks-format.ts'), program);
    const result = await run(['--conditions=@gw/source', 'packages/types/checks-format.ts'], scratch);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([0, ['settlement_date']]);
  }, 60_000);

  it('`gw call balance` works for it', async () => {
    const sandbox = spawn(process.execPath, ['--conditions=@gw/source', 'packages/cli/src/bin.ts', 'sandbox', '--port', '0'], {
      cwd: scratch,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        sandbox.stdout.on('data', (chunk: Buffer) => {
          seen += chunk;
          const match = /http:\/\/127\.0\.0\.1:\d+/.exec(seen);
          if (match) resolve(match[0]);
        });
        sandbox.on('close', () => reject(new Error(`gw sandbox exited: ${seen}`)));
      });
      const call = await run(
        ['--conditions=@gw/source', 'packages/cli/src/bin.ts', 'call', 'balance', '--data', '-', '--base-url', url, '--sandbox-defaults'],
        scratch,
        '{"currency":"EUR"}',
      );
      expect(call.stderr).toBe('');
      expect(call.code).toBe(0);
      expect(JSON.parse(call.stdout)).toMatchObject({ return_status: '1', currency: 'EUR', available_amount: '1234.50', merchant_id: 'M100200' });
    } finally {
      sandbox.kill('SIGTERM');
    }
  }, 60_000);
});
