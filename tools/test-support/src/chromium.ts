// Debian's Chromium driven by playwright-core: never a browser an install downloads.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian installs Chromium; GW_CHROMIUM names another binary. */
export const CHROMIUM_PATH = process.env.GW_CHROMIUM ?? '/usr/bin/chromium';

/** Launches Chromium (with `args` besides --no-sandbox), or fails saying how to install it. */
export async function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: install Debian's package (\`apt-get install -y chromium\`, as .ci/run does) or set GW_CHROMIUM to a Chromium binary.`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', ...args] });
}
