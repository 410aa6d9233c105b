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
import { startRegistry, type LocalRegistry } from '../registry/verdaccio.ts';

const node22 = join(repoRoot, '.cache/node22/node_modules/node/bin/node');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
const EXPECTED = { order_status: '1', capture_status: '1', batch: { succeeded: 60, failed: 0, rejected: 0, unknown: 0 }, limit: 50, decoded: 'alternative', errorClass: 'function' };

// pnpm as this test runs under it (pnpm test:all), otherwise from PATH; npm_config_* of the outer pnpm are dropped so
// the scratch copy's .npmrc names the registry.
// The scratch copy builds with the checkout's turbo cache (in the git common dir's root, shared by worktrees), as a
// release machine that just ran CI would: the 1.0.0 build of the tested sources is a cache hit, 1.1.0 really builds.
function pnpmIn(cwd: string, args: string[]) {
  const commonDir = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_config_/i.test(key))), TURBO_CACHE_DIR: join(dirname(commonDir), '.turbo/cache') };
  const execPath = process.env.npm_execpath;
  const running = execPath && /pnpm/.test(execPath) ? run(process.execPath, [execPath, ...args], { cwd, env, timeoutMs: 300_000 }) : run('pnpm', args, { cwd, env, timeoutMs: 300_000 });
  // The time of each release step, for the test log (release.ts prints them).
  return running.then((result) => {
    for (const line of result.stdout.split('\n')) if (/^release: [^:]+: [\d.]+ s$/.test(line)) console.log(line);
    return result;
  });
}

async function versionsOn(registry: LocalRegistry, name: string): Promise<string[]> {
  const response = await fetch(`${registry.url}${name.replace('/', '%2f')}`);
  return response.ok ? Object.keys(((await response.json()) as { versions: Record<string, unknown> }).versions).sort() : [];
}

// The machine's npm registry and the CA file npm trusts for it (turbo passes tasks no NODE_EXTRA_CA_CERTS).
async function upstreamRegistry(): Promise<{ upstream: string; ca?: string }> {
  const get = async (key: string) => (await run('npm', ['config', 'get', key], { cwd: tmpdir(), env: plainNpmEnv() })).stdout.trim();
  const cafile = await get('cafile');
  const ca = cafile && cafile !== 'null' && cafile !== 'undefined' && existsSync(cafile) ? readFileSync(cafile, 'utf8') : undefined;
  return { upstream: (await get('registry')) || 'https://registry.npmjs.org/', ...(ca ? { ca } : {}) };
}

// `pnpm release` from a scratch copy of the repository to Verdaccio on 127.0.0.1; a project outside the workspace
// installs `^1` with plain npm, runs against the sandbox on Node 24 and 22; a spec change then ships as 1.1.0.
describe('releasing to a real registry', () => {
  let registry: LocalRegistry;
  let work: string;
  let scratch: string;
  let consumer: string;
  const npm = (args: string[]) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error', '--fetch-timeout=60000', '--fetch-retries=3'], { cwd: consumer, env: plainNpmEnv({ node: 'workspace' }), timeoutMs: 180_000 });
  const consume = async (nodeBinary: string) => JSON.parse((await run(nodeBinary, ['consumer.mjs'], { cwd: consumer, timeoutMs: 60_000 })).stdout.trim());

  beforeAll(async () => {
    // Third-party dependencies (undici, ajv, commander, ...) come through the uplink; @gw/* only from this registry.
    registry = await startRegistry(await upstreamRegistry());
    work = mkdtempSync(join(tmpdir(), 'gw-release-'));
    scratch = join(work, 'repo');
    consumer = join(work, 'consumer');
    copyRepoForRelease(repoRoot, scratch);
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
    expect(JSON.parse(readFileSync(join(consumer, 'node_modules/@gw/client/package.json'), 'utf8')).version).toBe('1.0.0');
    expect(await consume(process.execPath)).toMatchObject(EXPECTED);
    if (!existsSync(node22) && process.env.CI) throw new Error('Node 22 missing: run `pnpm test:node22` first');
    if (existsSync(node22)) expect(await consume(node22)).toMatchObject({ ...EXPECTED, node: expect.stringMatching(/^v22\./) });
    // The field the spec change will add is not there yet.
    const before = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer, allowFailure: true });
    expect(before.code).not.toBe(0);
    expect(before.stdout).toContain('merchant_reference');
  }, 180_000);

  it('a spec change (a new optional field) with a minor changeset releases 1.1.0; the consumer updates and the field type-checks', async () => {
    const specPath = join(scratch, 'spec/v1/openapi.yaml');
    const doc = parse(readFileSync(specPath, 'utf8'));
    doc.components.schemas.CaptureOrder.properties.merchant_reference = { type: 'string', maxLength: 32, description: "The merchant's own reference of the order." };
    writeFileSync(specPath, stringify(doc, { lineWidth: 0 }));
    writeFileSync(join(scratch, '.changeset/capture-merchant-reference.md'), "---\n'@gw/types': minor\n---\nCapture orders may carry the merchant's own `merchant_reference`.\n");
    await pnpmIn(scratch, ['generate']);
    await pnpmIn(scratch, ['release']);
    for (const name of CONSUMED) expect(await versionsOn(registry, name), name).toEqual(['1.0.0', '1.1.0']);
    expect(readFileSync(join(scratch, 'packages/types/CHANGELOG.md'), 'utf8')).toMatch(/## 1\.1\.0\s+### Minor Changes\s+- (?:[0-9a-f]+: )?Capture orders may carry/);

    await npm(['update']);
    expect(JSON.parse(readFileSync(join(consumer, 'node_modules/@gw/types/package.json'), 'utf8')).version).toBe('1.1.0');
    const after = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer, allowFailure: true });
    expect(after.stdout + after.stderr).toBe('');
    expect(after.code).toBe(0);
    expect(await consume(process.execPath)).toMatchObject(EXPECTED);
  }, 420_000);
});
