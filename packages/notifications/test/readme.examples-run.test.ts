// The README's TypeScript examples run as written (they check themselves, or print what their comments say).
import { exampleScratch, readmeExamples } from '@gw/test-support';
import { afterAll, describe, expect, it } from 'vitest';

const scratch = exampleScratch(new URL('..', import.meta.url));
const examples = readmeExamples(new URL('../README.md', import.meta.url));
afterAll(() => scratch.remove());

describe('README examples', () => {
  it('include the quick start, handlers by kind, the WHATWG handler, the server limits, the full-disk store, the handler test, a custom decoder and telemetry', () => {
    expect(examples).toHaveLength(8);
  });

  it.each(examples.map((code, i) => [i + 1, code] as const))('example %i runs', async (index, code) => {
    const { module, logged } = await scratch.run(`example-${index}.ts`, code);
    const printed = logged.map((args) => args.map((a) => (typeof a === 'string' || typeof a === 'number' ? String(a) : JSON.stringify(a))).join(' '));
    if (index === 1) {
      expect(printed[0]).toBe('paid A-1');
      expect(printed[1]).toMatch(/^200 \{"outcome":"processed","id":"evt_[0-9a-f]{32}"\}$/);
      expect(printed[2]).toMatch(/^200 \{"outcome":"duplicate","id":"evt_[0-9a-f]{32}"\}$/);
    }
    if (code.includes('handleByKind(')) expect(printed).toEqual(['200 ["refunded 4.00 (partial)"]']);
    if (code.includes('ConsoleSpanExporter')) {
      expect(printed).toEqual([
        'POST /hooks/gw handled ',
        'POST /hooks/gw duplicate ',
        'POST /hooks/gw refused GW_SIGNATURE',
        'handled=1 duplicate=1 refused=1',
      ]);
    }
    if (code.includes('notificationRoute')) {
      const route = module.notificationRoute as (secret: string) => (request: Request) => Promise<Response>;
      expect((await route('readme-secret')(new Request('http://x/', { method: 'POST', body: '{}' }))).status).toBe(400);
    }
  });
});
