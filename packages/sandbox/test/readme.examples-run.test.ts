// The README's TypeScript examples run as written (they check themselves, or print what their comments say).
import { exampleScratch, readmeExamples } from '@gw/test-support';
import { afterAll, describe, expect, it } from 'vitest';

const scratch = exampleScratch(new URL('..', import.meta.url));
// Those that call the sandbox through @gw/client are left out: the sandbox never depends on the client.
const examples = readmeExamples(new URL('../README.md', import.meta.url)).filter((code) => !code.includes("from '@gw/client'"));
afterAll(() => scratch.remove());

describe('README examples', () => {
  it('include the quick start and telemetry', () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
    expect(examples.some((code) => code.includes('ConsoleSpanExporter'))).toBe(true);
  });

  it.each(examples.map((code, i) => [i + 1, code] as const))(
    'example %i runs',
    async (index, code) => {
      const { logged } = await scratch.run(`example-${index}.ts`, code);
      const printed = logged.map((args) => args.map(String).join(' '));
      if (code.includes('ConsoleSpanExporter')) {
        expect(printed).toEqual(['POST /v1/retrievalTrans 400 query', '4bf92f3577b34da6a3ce929d0e0e4736 00f067aa0ba902b7']);
      }
    },
    30_000,
  );
});
