import { describe, expect, it } from 'vitest';
import { runCli } from '../src/index.ts';
import { capturedIo } from './io.ts';

async function help(command: string): Promise<string> {
  const c = capturedIo();
  expect(await runCli([command, '--help'], c.io, c.signals)).toBe(0);
  return c.out().replace(/\s+/g, ' ');
}

describe('gw <command> --help', () => {
  it('gw batch says a journal or a ledger is required, and offers --concurrency', async () => {
    const text = await help('batch');
    expect(text).toContain('(--journal FILE) or a PostgreSQL ledger shared by workers (--ledger URL): one of the two is required');
    expect(text).toContain('--journal <file> required unless --ledger');
    expect(text).toContain('--ledger <url> required unless --journal');
    expect(text).toContain('--concurrency <n>');
  });

  it('gw trigger and gw call do not list --concurrency, which only a batch uses', async () => {
    for (const command of ['trigger', 'call']) {
      const text = await help(command);
      expect(text, command).toContain('--base-url <url>');
      expect(text, command).not.toContain('--concurrency');
    }
  });
});
