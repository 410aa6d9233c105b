import { exampleScratch, readmeBlocks } from '@gw/test-support';
import { afterAll, describe, expect, it } from 'vitest';

const scratch = exampleScratch(new URL('..', import.meta.url));
const blocks = readmeBlocks(new URL('../README.md', import.meta.url));
afterAll(() => scratch.remove());

describe('README examples', () => {
  it('show the quick start, reconciling, hooks and the open points', () => {
    for (const name of [
      'createClient(',
      'authoriseCard(',
      'capture(',
      'refund(',
      'query(',
      'OutcomeUnknownError',
      'hooks:',
      'exactNumber(',
      'fieldNameOverrides',
      'splitCodeMessage(',
      'ConsoleSpanExporter',
    ]) {
      expect(
        blocks.some((block) => block.includes(name)),
        name,
      ).toBe(true);
    }
  });

  it.each(blocks.map((block, index) => [index, block] as const))('example %i runs against a sandbox and its assertions hold', async (index, block) => {
    expect(block).toContain("from '@gw/client'");
    await scratch.run(`example-${index}.ts`, block);
  });
});
