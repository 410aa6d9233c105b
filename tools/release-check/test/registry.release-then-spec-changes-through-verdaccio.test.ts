import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { plainNpmEnv, repoRoot } from '../pack.ts';
import { CONSUMED, writeConsumerProject } from '../registry/consumer-project.ts';
import { run } from '../registry/run.ts';
import { copyRepoForRelease } from '../registry/scratch-repo.ts';
import { addBalanceOperation, addCaptureFields } from '../../codegen/test/support/new-operation.ts';
import { upstreamRegistry } from '../registry/upstream.ts';
import { startRegistry, type LocalRegistry } from '../registry/verdaccio.ts';

const node22 = join(repoRoot, '.cache/node22/node_modules/node/bin/node');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
const EXPECTED = {
  order_status: '1',
  capture_status: '1',
  batch: { succeeded: 60, failed: 0, rejected: 0, unknown: 0 },
  limit: 50,
  decoded: 'alternative',
  errorClass: 'function',
};
// The consumer's call of the operation the spec gains in 1.2.0: typed (tsc checks it) and run on Node 24.
const CALLS_NEW_OPERATION = `import type { GwClient } from '@gw/client';
import type { BalanceResponse } from '@gw/types';

export async function balanceOf(client: GwClient): Promise<BalanceResponse> {
  return client.balance({ currency: 'EUR' });
}
`;
const RUNS_NEW_OPERATION = `import { createClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { balanceOf } from './calls-new-operation.ts';

const sandbox = await startSandbox();
const client = createClient({ baseUrl: sandbox.url, ...SANDBOX_DEFAULT_MERCHANT, signer: createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET }) });
try {
  const { currency, available_amount, reserved_amount } = await balanceOf(client);
  console.log(JSON.stringify({ currency, available_amount, reserved_amount }));
} finally {
  await client.close();
  await sandbox.stop();
}
`;

// pnpm as this test runs under it (pnpm test:all), otherwise from PATH; npm_config_* of the outer pnpm are dropped so
// the scratch copy's .npmrc names the registry.
// The scratch copy builds with the checkout's turbo cache (in the git common dir's root, shared by worktrees), as a
// release machine that just ran CI would: the 1.0.0 build of the tested sources is a cache hit, 1.1.0 really builds.
function pnpmIn(cwd: string, args: string[], options: { allowFailure?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const commonDir = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_config_/i.test(key))),
    TURBO_CACHE_DIR: join(dirname(commonDir), '.turbo/cache'),
    ...options.env,
  };
  const execPath = process.env.npm_execpath;
  const settings = { cwd, env, timeoutMs: 300_000, allowFailure: options.allowFailure ?? false };
  const started = performance.now();
  const running = execPath && /pnpm/.test(execPath) ? run(process.execPath, [execPath, ...args], settings) : run('pnpm', args, settings);
  // The time of each command and of each release step (release.ts prints them), for the test log.
  return running.then((result) => {
    for (const line of result.stdout.split('\n')) if (/^release: [^:]+: [\d.]+ s$/.test(line)) console.log(`  ${line}`);
    console.log(`pnpm ${args.slice(0, 3).join(' ')}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  });
}

async function versionsOn(registry: LocalRegistry, name: string): Promise<string[]> {
  const response = await fetch(`${registry.url}${name.replace('/', '%2f')}`);
  return response.ok ? Object.keys(((await response.json()) as { versions: Record<string, unknown> }).versions).sort() : [];
}

// `pnpm release` from a scratch copy of the repository to Verdaccio on 127.0.0.1; a project outside the workspace
// installs `^1` with plain npm and runs against the sandbox on Node 24 and 22. Then the spec changes as a team changes
// it, each step as the root README's "Changing the spec" says: a new optional response field ships as 1.1.0, a new
// operation as 1.2.0 (its tests pass with no edit but `pnpm generate`), and a removal without a major changeset is
// refused before anything is versioned.
describe('releasing to a real registry', () => {
  let registry: LocalRegistry;
  let work: string;
  let scratch: string;
  let consumer: string;
  const npm = (args: string[]) =>
    run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error', '--fetch-timeout=60000', '--fetch-retries=3'], {
      cwd: consumer,
      env: plainNpmEnv({ node: 'workspace' }),
      timeoutMs: 180_000,
    });
  const consume = async (nodeBinary: string, script = 'consumer.mjs') =>
    JSON.parse((await run(nodeBinary, [script], { cwd: consumer, timeoutMs: 60_000 })).stdout.trim());
  const typecheckConsumer = () => run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer, allowFailure: true });
  const installedVersion = (name: string) => JSON.parse(readFileSync(join(consumer, 'node_modules', name, 'package.json'), 'utf8')).version;
  const editSpec = (edit: (doc: any) => void) => {
    const specPath = join(scratch, 'spec/v1/openapi.yaml');
    const doc = parse(readFileSync(specPath, 'utf8'));
    edit(doc);
    writeFileSync(specPath, stringify(doc, { lineWidth: 0 }));
  };
  // As the README says: `pnpm spec:changeset <bump> "<summary>"` (@gw/types by default; the fixed group versions all).
  const changeset = (bump: string, summary: string, packages: string[]) => pnpmIn(scratch, ['spec:changeset', bump, summary, ...packages]);
  // The README's steps 4 and 5: after `pnpm api:update`, `pnpm api:check` names the bump and every package the change
  // touches with the command recording it; it fails until a changeset names them.
  const packagesToRecord = async (bump: string): Promise<string[]> => {
    const check = await pnpmIn(scratch, ['api:check'], { allowFailure: true });
    const output = check.stdout + check.stderr;
    expect(check.code, output).not.toBe(0);
    const command = new RegExp(
      `^api:check: record the change\\(s\\) in one changeset naming every package they touch: pnpm spec:changeset ${bump} "<what changed, for the CHANGELOG>" (.+)$`,
      'm',
    ).exec(output);
    expect(command, output).not.toBeNull();
    return command![1]!.trim().split(' ');
  };

  beforeAll(async () => {
    // Third-party dependencies (undici, ajv, commander, ...) come through the uplink; @gw/* only from this registry.
    registry = await startRegistry(await upstreamRegistry());
    work = mkdtempSync(join(tmpdir(), 'gw-release-'));
    scratch = join(work, 'repo');
    consumer = join(work, 'consumer');
    // The scratch copy starts from the released line: changes recorded since (pending changesets) are main's next
    // release, not this test's, so its first release publishes the committed 1.0.0.
    copyRepoForRelease(repoRoot, scratch, { withoutPendingChangesets: true });
    writeFileSync(join(scratch, '.npmrc'), `${readFileSync(join(scratch, '.npmrc'), 'utf8')}${registry.npmrc}`);
    writeConsumerProject(consumer, registry.url);
    cpSync(join(import.meta.dirname, '../consumer/consumer.mjs'), join(consumer, 'consumer.mjs'));
  }, 60_000);

  afterAll(async () => {
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('pnpm release publishes 1.0.0 of every package, each with a CHANGELOG', async () => {
    await pnpmIn(scratch, ['release']);
    for (const name of CONSUMED) expect(await versionsOn(registry, name), name).toEqual(['1.0.0']);
    for (const name of CONSUMED) expect(readFileSync(join(scratch, 'packages', name.slice(4), 'CHANGELOG.md'), 'utf8'), name).toMatch(/^## 1\.0\.0$/m);
  }, 300_000);

  it('a project outside the workspace installs ^1 with plain npm and runs against the sandbox on Node 24 and 22', async () => {
    await npm(['install']);
    expect(installedVersion('@gw/client')).toBe('1.0.0');
    expect(await consume(process.execPath)).toMatchObject({ ...EXPECTED, settlement_date: null });
    if (!existsSync(node22) && process.env.CI) throw new Error('Node 22 missing: run `pnpm test:node22` first');
    if (existsSync(node22)) expect(await consume(node22)).toMatchObject({ ...EXPECTED, node: expect.stringMatching(/^v22\./) });
    // The field the spec change will add is not there yet.
    const before = await typecheckConsumer();
    expect(before.code).not.toBe(0);
    expect(before.stdout).toContain('settlement_date');
  }, 180_000);

  it('a new optional response field: api:check names the bump and the packages, with a minor changeset naming them it passes, 1.1.0 is released; the consumer type-checks the field and the sandbox returns it', async () => {
    editSpec(addCaptureFields);
    await pnpmIn(scratch, ['generate']);
    await pnpmIn(scratch, ['api:update']);
    const touched = await packagesToRecord('minor');
    expect(touched).toContain('@gw/types');
    await changeset('minor', 'Capture results carry the day the capture settles, `settlement_date`.', touched);
    const check = await pnpmIn(scratch, ['api:check']);
    expect(check.stdout).toMatch(/@gw\/types: needs minor \(adds \d+ line\(s\) to the last release\)\n\s+covered by \.changeset\/\S+\.md \(minor\)/);
    await pnpmIn(scratch, ['release']);
    for (const name of CONSUMED) expect(await versionsOn(registry, name), name).toEqual(['1.0.0', '1.1.0']);
    expect(readFileSync(join(scratch, 'packages/types/CHANGELOG.md'), 'utf8')).toMatch(
      /## 1\.1\.0\s+### Minor Changes\s+- (?:[0-9a-f]+: )?Capture results carry/,
    );

    await npm(['update']);
    expect(installedVersion('@gw/types')).toBe('1.1.0');
    const after = await typecheckConsumer();
    expect(after.stdout + after.stderr).toBe('');
    expect(after.code).toBe(0);
    // The sandbox has no rule for the new field: it answers the value the spec shows (its format, a date).
    expect(await consume(process.execPath)).toMatchObject({ ...EXPECTED, settlement_date: '2026-01-01' });
  }, 420_000);

  it('a new operation: after pnpm generate, typecheck and the types, client and sandbox tests pass with no other edit; 1.2.0 is released and the consumer calls it', async () => {
    editSpec(addBalanceOperation);
    const generated = await pnpmIn(scratch, ['generate']);
    expect(generated.stdout).toContain('generate: wrote spec/v1/examples/balance.request.json');
    await pnpmIn(scratch, ['typecheck']);
    // The client's property test with the input count its Node 22 run uses (5,000 rather than 100,000): the new
    // operation is among the methods it draws from either way.
    const tests = await pnpmIn(
      scratch,
      ['exec', 'turbo', 'run', 'test', '--filter=@gw/types', '--filter=@gw/client', '--filter=@gw/sandbox', '--output-logs=errors-only'],
      { env: { RUNS_OVERRIDE: '5000' } },
    );
    expect(tests.stdout).toMatch(/Tasks:\s+\d+ successful/);
    await pnpmIn(scratch, ['api:update']);
    const touched = await packagesToRecord('minor');
    expect(touched).toEqual(expect.arrayContaining(['@gw/types', '@gw/client']));
    await changeset('minor', 'A new operation, `balance` (`POST /v1/balance`): the available balance in one currency.', touched);
    await pnpmIn(scratch, ['release']);
    expect(await versionsOn(registry, '@gw/client')).toEqual(['1.0.0', '1.1.0', '1.2.0']);

    await npm(['update']);
    expect(installedVersion('@gw/client')).toBe('1.2.0');
    writeFileSync(join(consumer, 'calls-new-operation.ts'), CALLS_NEW_OPERATION);
    writeFileSync(join(consumer, 'runs-new-operation.mjs'), RUNS_NEW_OPERATION);
    const typed = await typecheckConsumer();
    expect(typed.stdout + typed.stderr).toBe('');
    // The sandbox answers with the operation's spec example (reserved 250.00, not the shared amount schema's 10.00).
    expect(await consume(process.execPath, 'runs-new-operation.mjs')).toEqual({ currency: 'EUR', available_amount: '1234.50', reserved_amount: '250.00' });
  }, 480_000);

  it('an API removal with only a minor changeset: pnpm release refuses before versioning and publishes nothing', async () => {
    editSpec((doc) => delete doc.components.schemas.QueriedOrder.properties.antifraud_provider);
    await changeset('minor', 'Queried orders no longer carry `antifraud_provider`.', ['@gw/types']);
    await pnpmIn(scratch, ['generate']);
    // No `pnpm api:update` first: the release's check compares the last release's report with the build, so it names
    // the removal either way (and, here, the report left stale too).
    const refused = await pnpmIn(scratch, ['release'], { allowFailure: true });
    const output = refused.stdout + refused.stderr;
    expect(refused.code).not.toBe(0);
    expect(output).toMatch(/@gw\/types: needs a major changeset naming it \(pending for @gw\/types: minor in \.changeset\/\S+\.md\)/);
    expect(output).toContain('antifraud_provider');
    expect(output).toContain('release: refused: api reports and changesets failed');
    expect(output).not.toMatch(/^release: version:/m);
    expect(JSON.parse(readFileSync(join(scratch, 'packages/types/package.json'), 'utf8')).version).toBe('1.2.0');
    expect(await versionsOn(registry, '@gw/types')).toEqual(['1.0.0', '1.1.0', '1.2.0']);
  }, 300_000);
});
