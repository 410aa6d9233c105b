import { exampleScratch, readmeBlocks } from '@gw/test-support';
import { afterAll, describe, expect, it } from 'vitest';

const scratch = exampleScratch(new URL('..', import.meta.url));
const blocks = readmeBlocks(new URL('../README.md', import.meta.url));
afterAll(() => scratch.remove());

describe('README examples', () => {
  it('has an example for every public function', () => {
    for (const name of [
      'decodeRespon',
      'decodeCardRespon',
      'decodeAlternativeRespon',
      'encodeRespon',
      'encodeCancelSubscription',
      'decodeCancelSubscription',
      'decodeCheckoutPage',
      'encodeCheckoutPage',
      'encodeItems',
      'decodeItems',
    ]) {
      expect(
        blocks.some((block) => block.includes(`${name}(`)),
        name,
      ).toBe(true);
    }
  });

  it.each(blocks.map((block, index) => [index, block] as const))('example %i runs and its assertions hold', async (index, block) => {
    expect(block).toContain("from '@gw/xml-codec'");
    await scratch.run(`example-${index}.ts`, block);
  });
});
