import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createClient } from '@gw/client';
import { startProxy } from '@gw/proxy';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { specPath } from '@gw/types/spec';
import { beforeAll, describe, expect, it } from 'vitest';
import { gw } from './io.ts';

const repoRoot = join(import.meta.dirname, '../../..');
const repoSpec = readFileSync(join(repoRoot, 'spec/v1/openapi.yaml'), 'utf8');
const typesVersion = (JSON.parse(readFileSync(join(repoRoot, 'packages/types/package.json'), 'utf8')) as { version: string }).version;

/** A proxy report of a capture whose answer carries a field the spec lacks (`settlement_window`). */
async function driftReport(dir: string): Promise<void> {
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  await using sandbox = await startSandbox({ answerDrift: { capture: { add: { settlement_window: 'T+1' } } } });
  await using proxy = await startProxy({ upstream: sandbox.url, reportFile: join(dir, 'drift.json'), verifier: signer });
  const client = createClient({ baseUrl: proxy.url, ...SANDBOX_DEFAULT_MERCHANT, signer, retry: { attempts: 1 } });
  const paid = await client.authoriseCard({
    order_no: 'SHIPPED-1',
    currency: 'USD',
    amount: '10.00',
    card: '4111111111111111',
    expiration_month: '12',
    expiration_year: '2031',
    security_code: '737',
  });
  await client
    .capture({ capture_orders: [{ transaction_id: paid.transaction_id!, order_no: 'SHIPPED-1', currency: 'USD', amount: '10.00' }] })
    .catch(() => undefined);
  await proxy.settled();
}

/** The proposed copy without the one field the patch adds: what it started from. */
const withoutNewField = (text: string): string => text.replace(/^ {8}settlement_window:\n(?: {10}.*\n)+/m, '');

// The spec a consumer's `gw spec drift --patch` starts from: the shipped one outside the repository, the repository's
// inside it, `--spec` wherever it is given. @gw/types's build writes the shipped copy (tests run after `^build`).
describe('gw spec drift --patch: which spec it starts from', () => {
  let reports: string;
  beforeAll(async () => {
    reports = mkdtempSync(join(tmpdir(), 'gw-cli-shipped-spec-'));
    await driftReport(reports);
  }, 60_000);

  it('outside the gw repository: the spec @gw/types ships, the one its types were generated from', async () => {
    const project = mkdtempSync(join(tmpdir(), 'gw-consumer-project-'));
    cpSync(join(reports, 'drift.json'), join(project, 'drift.json'));
    const patched = await gw(['spec', 'drift', 'drift.json', '--patch'], { cwd: project });
    expect(patched.err).toBe('');
    expect(patched.status).toBe(13);
    expect(readFileSync(specPath(), 'utf8')).toBe(repoSpec);
    expect(patched.out).toContain(`proposed spec: openapi.proposed.yaml (1 change(s) to the spec of @gw/types ${typesVersion} (${specPath()}))`);
    expect(patched.out).toContain('capture settlement_window: new optional field of type string (schema CaptureResponse)');
    expect(patched.out).toContain(`review it (diff ${specPath()} openapi.proposed.yaml), then send it to the team that keeps the gw spec`);
    expect(withoutNewField(readFileSync(join(project, 'openapi.proposed.yaml'), 'utf8'))).toBe(repoSpec);
  });

  it("inside the repository, in any folder below its root: the repository's spec/v1/openapi.yaml", async () => {
    const repo = mkdtempSync(join(tmpdir(), 'gw-repo-'));
    mkdirSync(join(repo, 'spec/v1'), { recursive: true });
    writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'gw-monorepo', private: true }));
    const edited = `${repoSpec}# edited in this clone\n`;
    cpSync(join(repoRoot, 'spec/v1/openapi.yaml'), join(repo, 'spec/v1/openapi.yaml'));
    appendFileSync(join(repo, 'spec/v1/openapi.yaml'), '# edited in this clone\n');
    const below = join(repo, 'packages/cli');
    mkdirSync(below, { recursive: true });
    cpSync(join(reports, 'drift.json'), join(below, 'drift.json'));
    const patched = await gw(['spec', 'drift', 'drift.json', '--patch', '--out', 'proposed.yaml'], { cwd: below });
    const shown = relative(below, join(repo, 'spec/v1/openapi.yaml'));
    expect(patched.out).toContain(`proposed spec: proposed.yaml (1 change(s) to ${shown})`);
    expect(patched.out).toContain(`review it (diff ${shown} proposed.yaml), copy it over ${shown}, then run pnpm generate`);
    expect(withoutNewField(readFileSync(join(below, 'proposed.yaml'), 'utf8'))).toBe(edited);
  });

  it("below a team's own spec/v1/openapi.yaml (not the gw repository): still the spec @gw/types ships", async () => {
    const theirs = mkdtempSync(join(tmpdir(), 'team-monorepo-'));
    mkdirSync(join(theirs, 'spec/v1'), { recursive: true });
    writeFileSync(join(theirs, 'package.json'), JSON.stringify({ name: 'team-monorepo', private: true }));
    writeFileSync(join(theirs, 'spec/v1/openapi.yaml'), 'openapi: 3.1.0\ninfo: { title: Their own API, version: 1.0.0 }\npaths: {}\n');
    const service = join(theirs, 'services/payments');
    mkdirSync(service, { recursive: true });
    cpSync(join(reports, 'drift.json'), join(service, 'drift.json'));
    const patched = await gw(['spec', 'drift', 'drift.json', '--patch'], { cwd: service });
    expect(patched.out).toContain(`(1 change(s) to the spec of @gw/types ${typesVersion} (${specPath()}))`);
    expect(withoutNewField(readFileSync(join(service, 'openapi.proposed.yaml'), 'utf8'))).toBe(repoSpec);
  });

  it('--spec FILE wins wherever gw runs', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'gw-repo-'));
    cpSync(join(repoRoot, 'spec/v1'), join(repo, 'spec/v1'), { recursive: true });
    cpSync(join(reports, 'drift.json'), join(repo, 'drift.json'));
    const own = `${repoSpec}# a team's own copy\n`;
    writeFileSync(join(repo, 'own.yaml'), own);
    const patched = await gw(['spec', 'drift', 'drift.json', '--patch', '--spec', 'own.yaml'], { cwd: repo });
    expect(patched.out).toContain('proposed spec: openapi.proposed.yaml (1 change(s) to own.yaml)');
    expect(withoutNewField(readFileSync(join(repo, 'openapi.proposed.yaml'), 'utf8'))).toBe(own);
  });
});
