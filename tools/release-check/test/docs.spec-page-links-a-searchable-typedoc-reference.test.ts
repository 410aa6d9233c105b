import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { operations } from '@gw/types';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApiReference, writeSpecPage } from '../api/docs.ts';
import { publishable, repoRoot } from '../pack.ts';

const CHROMIUM = process.env.GW_CHROMIUM ?? '/usr/bin/chromium';

// `pnpm run docs` as a reader meets it: the spec page in a real Chromium, its link to the TypeDoc reference, the search.
describe('pnpm run docs: the /v1 page links to a searchable TypeScript reference of every package', () => {
  let out: string;
  let browser: Browser;
  let packages: string[];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: \`apt-get install -y chromium\` (as .ci/run does) or set GW_CHROMIUM`);
    out = mkdtempSync(join(tmpdir(), 'gw-docs-'));
    packages = await writeApiReference(repoRoot, join(out, 'api'));
    writeSpecPage(repoRoot, out);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('documents every published package, each with its README as the front page', () => {
    expect(packages.sort()).toEqual(
      publishable()
        .map((p) => p.name)
        .sort(),
    );
    expect(readFileSync(join(out, 'api/modules/_gw_client.html'), 'utf8')).toContain('Quick start');
  });

  it('the spec page (scripts inlined) links to the reference, whose search finds names and doc comment text', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!/^(file|data|blob):/.test(request.url())) outside.push(request.url());
    });
    await page.goto(pathToFileURL(join(out, 'index.html')).href);
    await expect(page.locator('h1').first().innerText()).resolves.toContain('Merchant Payment Gateway');
    await page.click('#gw-api-reference');
    await page.waitForURL(/\/api\/index\.html$/);
    for (const name of packages) await expect(page.locator(`a:has-text("${name}")`).count()).resolves.toBeGreaterThan(0);

    // The search box as a reader uses it: open it, type, read the results list (it updates as one types).
    const searchFinds = async (text: string, expected: string): Promise<void> => {
      await page.click('#tsd-search-trigger');
      await page.fill('#tsd-search-input', text);
      await expect.poll(() => page.locator('#tsd-search-results li').allInnerTexts(), { timeout: 5_000 }).toContain(expected);
      await page.keyboard.press('Escape');
    };
    await searchFinds('createClient', '@gw/client.createClient');
    // A word only in a doc comment (GwConfig.secret's "the HMAC secret"): the search reads the comments too.
    await searchFinds('hmac', '@gw/cli.GwConfig.secret');

    await page.goto(pathToFileURL(join(out, 'api/functions/_gw_client.createClient.html')).href);
    await expect(page.locator('body').innerText()).resolves.toContain('Creates a client');
    await page.click('a:has-text("The /v1 interface")');
    await page.waitForURL(/\/index\.html$/);
    // Redoc's "API docs by Redocly" logo is the one thing it loads from its CDN (hidden when that fails); nothing else.
    expect(outside.filter((url) => !/^https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg$/.test(url))).toEqual([]);
    await page.close();
  }, 60_000);

  it('the client reference has a documented method for every operation of the spec', () => {
    const methods = readFileSync(join(out, 'api/interfaces/_gw_client.OperationMethods.html'), 'utf8');
    for (const name of Object.keys(operations)) expect(methods, name).toMatch(new RegExp(`id="${name.toLowerCase()}"`));
    expect(methods).toContain('Capture transactions.');
  });
});
