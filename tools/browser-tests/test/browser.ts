// Screenshots of the pages a test drove in Chromium (one real Chromium per test file: @gw/test-support/chromium).
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');

/** Saves a full-page screenshot as screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The sandbox package's docs folder, where the README's console screenshots live. */
export const SANDBOX_DOCS = join(import.meta.dirname, '..', '..', '..', 'packages', 'sandbox', 'docs');

/**
 * A screenshot as screenshot() takes it; with GW_UPDATE_DOCS_SCREENSHOTS=1 also written over the sandbox README's
 * packages/sandbox/docs/<name>.png (opt-in, so an ordinary test run leaves the tree as it was).
 */
export async function docsScreenshot(page: Page, name: string): Promise<string> {
  const path = await screenshot(page, name);
  if (process.env.GW_UPDATE_DOCS_SCREENSHOTS === '1') copyFileSync(path, join(SANDBOX_DOCS, `${name}.png`));
  return path;
}
