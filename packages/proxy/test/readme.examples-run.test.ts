// The README's TypeScript examples run as written (they check themselves, or print what their comments say).
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exampleScratch, readmeExamples } from '@gw/test-support';
import { afterAll, describe, expect, it } from 'vitest';

const scratch = exampleScratch(new URL('..', import.meta.url));
const examples = readmeExamples(new URL('../README.md', import.meta.url));
afterAll(() => {
  scratch.remove();
  // The quick start writes its report where it runs.
  rmSync(fileURLToPath(new URL('../drift.json', import.meta.url)), { force: true });
});

describe('README examples', () => {
  it('include the quick start and telemetry', () => {
    expect(examples).toHaveLength(2);
  });

  it.each(examples.map((code, i) => [i + 1, code] as const))(
    'example %i runs',
    async (index, code) => {
      const { logged } = await scratch.run(`example-${index}.ts`, code);
      const printed = logged.map((args) => args.map((a) => (typeof a === 'string' || typeof a === 'number' ? String(a) : JSON.stringify(a))).join(' '));
      if (index === 1) expect(printed).toEqual(['0 kind(s) of drift']); // no traffic went through it
      if (code.includes('ConsoleSpanExporter')) expect(printed).toEqual(['POST /v1/retrievalTrans query ["unknown-field"]', '["query unknown-field 1"]']);
    },
    30_000,
  );
});
