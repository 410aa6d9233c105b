// What a shopper test drives: Debian's Chromium, a sandbox (notifications retried after 20 ms) and a merchant app on it.
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { launchChromium } from '@gw/test-support/chromium';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startMerchantApp, type MerchantApp } from './merchant-app.ts';

/** A browser, a sandbox and a merchant app, shared by a test file's tests. */
export interface ShopperWorld {
  readonly browser: Browser;
  readonly sandbox: Sandbox;
  readonly app: MerchantApp;
}

/** Starts a ShopperWorld before the file's tests and closes it after them; `use` receives it once started. */
export function shopperWorldForFile(use: (world: ShopperWorld) => void): void {
  let browser: Browser | undefined;
  let sandbox: Sandbox | undefined;
  let app: MerchantApp | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    sandbox = await startSandbox({ notify: { baseDelayMs: 20 } });
    app = await startMerchantApp(sandbox);
    use({ browser, sandbox, app });
  });
  afterAll(async () => {
    await app?.close();
    await sandbox?.stop();
    await browser?.close();
  });
}
