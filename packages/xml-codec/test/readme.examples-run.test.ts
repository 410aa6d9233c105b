import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packageDir = join(import.meta.dirname, '..');
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
const scratch = mkdtempSync(join(tmpdir(), 'gw-xml-codec-readme-'));
const source = pathToFileURL(join(packageDir, 'src/index.ts')).href;

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('README examples', () => {
  it('has an example for every public function', () => {
    for (const name of ['decodeRespon', 'decodeCardRespon', 'decodeAlternativeRespon', 'encodeRespon', 'encodeCancelSubscription', 'decodeCancelSubscription', 'decodeCheckoutPage', 'encodeCheckoutPage', 'encodeItems', 'decodeItems']) {
      expect(blocks.some((block) => block.includes(`${name}(`)), name).toBe(true);
    }
  });

  it.each(blocks.map((block, index) => [index, block] as const))('example %i runs and its assertions hold', async (index, block) => {
    expect(block).toContain("from '@gw/xml-codec'");
    const file = join(scratch, `example-${index}.ts`);
    writeFileSync(file, block.replaceAll("from '@gw/xml-codec'", `from '${source}'`));
    await import(pathToFileURL(file).href);
  });
});
