import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packAll, plainNpmEnv, publishable, repoRoot } from '../pack.ts';
import { publishPackedAt } from '../registry/publish-packed.ts';
import { run } from '../registry/run.ts';
import { upstreamRegistry } from '../registry/upstream.ts';
import { startRegistry, type LocalRegistry } from '../registry/verdaccio.ts';

const node22 = join(repoRoot, '.cache/node22/node_modules/node/bin/node');
const PLACEHOLDER = 'https://npm.your-company.example/';

/** The README section "Installing in your project": its code blocks by language, in order, and the quick start. */
function readmeSteps(): { npmrc: string; install: string; tsconfig: string; upgrade: string; quickStart: string } {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('## Installing in your project');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = (lang: string) => [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!.replace(/^ {3}/gm, ''));
  const [install, upgrade] = blocks('sh');
  const quickStart = /## Quick start with `@gw\/client`\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (start === -1 || !install || !upgrade || !quickStart)
    throw new Error('README: "Installing in your project" or its quick start has changed shape; update this test with it');
  return { npmrc: blocks('ini')[0]!, install, tsconfig: blocks('json')[0]!, upgrade, quickStart };
}

// The README's steps for a team's project, run as written against Verdaccio on 127.0.0.1 that holds 1.0.0 (then 1.0.1)
// of every package; third-party packages come through it from the machine's npm registry.
describe('README "Installing in your project", step by step', () => {
  const steps = readmeSteps();
  let registry: LocalRegistry;
  let work: string;
  let project: string;
  let tarballs: string[];
  // npm on the workspace's Node 24, the project's token in the environment the .npmrc names, no audit or fund calls.
  const shell = (script: string, cwd = project) =>
    run('bash', ['-euo', 'pipefail', '-c', script], {
      cwd,
      env: {
        ...plainNpmEnv({ node: 'workspace' }),
        GW_NPM_TOKEN: registry.token,
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_loglevel: 'error',
      },
      timeoutMs: 300_000,
    });
  const installedVersions = () =>
    Object.fromEntries(
      ['client', 'signer-interface', 'types', 'sandbox', 'cli'].map((name) => [
        name,
        JSON.parse(readFileSync(join(project, 'node_modules/@gw', name, 'package.json'), 'utf8')).version,
      ]),
    );

  beforeAll(async () => {
    // @gw/* is read with a token only, as from a company's registry: the .npmrc's token line is needed.
    registry = await startRegistry({ ...(await upstreamRegistry()), scopeNeedsToken: true });
    work = mkdtempSync(join(tmpdir(), 'gw-install-'));
    tarballs = packAll(join(work, 'tarballs'));
    await publishPackedAt(registry, tarballs, '1.0.0', join(work, 'publish'));
    project = join(work, 'team-project');
    mkdirSync(project);
  }, 180_000);

  afterAll(async () => {
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("1-3: an ES module project with the scope's registry in .npmrc installs ^1 of what it uses", async () => {
    expect(tarballs).toHaveLength(publishable().length);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'team-project', private: true, type: 'module' }, null, 2));
    const npmrc = steps.npmrc.replaceAll(PLACEHOLDER, registry.url).replaceAll(PLACEHOLDER.replace('https:', ''), registry.url.replace('http:', ''));
    expect(npmrc).toContain(registry.url);
    writeFileSync(join(project, '.npmrc'), npmrc);
    writeFileSync(join(project, 'tsconfig.json'), steps.tsconfig);
    await shell(steps.install);
    expect(installedVersions()).toEqual({ client: '1.0.0', 'signer-interface': '1.0.0', types: '1.0.0', sandbox: '1.0.0', cli: '1.0.0' });
    // The .npmrc names the token's variable, never the token; without the variable the registry refuses @gw/*.
    expect(readFileSync(join(project, '.npmrc'), 'utf8')).not.toContain(registry.token);
    const anonymous = await run('npm', ['view', '@gw/client', 'version'], {
      cwd: project,
      env: { ...plainNpmEnv({ node: 'workspace' }), GW_NPM_TOKEN: '' },
      allowFailure: true,
    });
    expect(anonymous.code).not.toBe(0);
  }, 300_000);

  it('4: the quick start type-checks and runs on Node 24 and 22; npx gw demo runs', async () => {
    writeFileSync(join(project, 'quick-start.ts'), steps.quickStart);
    const tsc = await run(join(project, 'node_modules/.bin/tsc'), ['-p', '.'], { cwd: project, allowFailure: true });
    expect(tsc.stdout + tsc.stderr).toBe('');
    const nodes = [process.execPath];
    if (existsSync(node22)) nodes.push(node22);
    else if (process.env.CI) throw new Error('Node 22 missing: run `pnpm test:node22` first');
    for (const node of nodes) {
      const ran = await run(node, ['quick-start.ts'], { cwd: project, allowFailure: true, timeoutMs: 60_000 });
      expect(`${node}: exit ${ran.code} ${ran.stderr.split('\n').slice(0, 4).join('\n')}`).toBe(`${node}: exit 0 `);
    }
    const demo = await shell('npx gw demo --orders 100');
    expect(demo.stdout).toMatch(/invariants hold/);
  }, 180_000);

  it("upgrading: after a release of every package, the README's commands bring them all to it together", async () => {
    await publishPackedAt(registry, tarballs, '1.0.1', join(work, 'publish'));
    const listed = await shell(steps.upgrade);
    expect(installedVersions()).toEqual({ client: '1.0.1', 'signer-interface': '1.0.1', types: '1.0.1', sandbox: '1.0.1', cli: '1.0.1' });
    expect(listed.stdout).toMatch(/@gw\/client@1\.0\.1/);
    expect(listed.stdout).not.toMatch(/@gw\/types@1\.0\.0/);
  }, 300_000);
});
