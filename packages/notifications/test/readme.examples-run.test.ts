// The README's TypeScript examples run as written (they check themselves, or print what their comments say).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';

// Inside the package (so `@gw/notifications` resolves to itself) but outside src/ and test/ (so typecheck skips it).
const scratch = fileURLToPath(new URL('../.readme-examples/', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((code) => /^import /m.test(code));

mkdirSync(scratch, { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('README examples', () => {
  it('include the quick start, the WHATWG handler, the server limits, the full-disk store, the handler test and a custom decoder', () => {
    expect(examples).toHaveLength(6);
  });

  it.each(examples.map((code, i) => [i + 1, code] as const))('example %i runs', async (index, code) => {
    const file = `${scratch}example-${index}.ts`;
    writeFileSync(file, code);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const module = await import(pathToFileURL(file).href);
      const printed = log.mock.calls.map((args) => args.map((a) => (typeof a === 'string' || typeof a === 'number' ? String(a) : JSON.stringify(a))).join(' '));
      if (index === 1) {
        expect(printed[0]).toBe('paid A-1');
        expect(printed[1]).toMatch(/^200 \{"outcome":"processed","id":"evt_[0-9a-f]{32}"\}$/);
        expect(printed[2]).toMatch(/^200 \{"outcome":"duplicate","id":"evt_[0-9a-f]{32}"\}$/);
      }
      if (index === 2) expect((await module.notificationRoute('readme-secret')(new Request('http://x/', { method: 'POST', body: '{}' }))).status).toBe(400);
    } finally {
      log.mockRestore();
    }
  });
});
