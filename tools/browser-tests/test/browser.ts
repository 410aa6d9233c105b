// One real Chromium per test file: Debian's `chromium` package driven by playwright-core (never a downloaded browser).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where Debian installs Chromium; override with GW_CHROMIUM. */
export const CHROMIUM_PATH = process.env.GW_CHROMIUM ?? '/usr/bin/chromium';

/** Launches Chromium (with `args` besides --no-sandbox), or fails saying how to install it. */
export async function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's package (\`apt-get install -y chromium\`, as .ci/run does) or set GW_CHROMIUM to a Chromium binary.`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', ...args] });
}

export const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');

/** Saves a full-page screenshot as screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
