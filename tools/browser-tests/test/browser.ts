// Screenshots of the pages a test drove in Chromium (one real Chromium per test file: @gw/test-support/chromium).
import { mkdirSync } from 'node:fs';
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
