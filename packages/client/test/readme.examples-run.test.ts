import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packageDir = join(import.meta.dirname, '..');
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
const scratch = mkdtempSync(join(tmpdir(), 'gw-client-readme-'));
// The examples import packages by name; from a scratch file those names point at the workspace sources.
const sources: Record<string, string> = {
  '@gw/client': join(packageDir, 'src/index.ts'),
  '@gw/sandbox': join(packageDir, '../sandbox/src/index.ts'),
  '@gw/signer-interface': join(packageDir, '../signer-interface/src/index.ts'),
};

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('README examples', () => {
  it('show the quick start, reconciling, hooks and the open points', () => {
    for (const name of ['createClient(', 'authoriseCard(', 'capture(', 'refund(', 'query(', 'OutcomeUnknownError', 'hooks:', 'exactNumber(', 'fieldNameOverrides', 'splitCodeMessage(']) {
      expect(blocks.some((block) => block.includes(name)), name).toBe(true);
    }
  });

  it.each(blocks.map((block, index) => [index, block] as const))('example %i runs against a sandbox and its assertions hold', async (index, block) => {
    expect(block).toContain("from '@gw/client'");
    let code = block;
    for (const [name, file] of Object.entries(sources)) code = code.replaceAll(`from '${name}'`, `from '${pathToFileURL(file).href}'`);
    const file = join(scratch, `example-${index}.ts`);
    writeFileSync(file, code);
    await import(pathToFileURL(file).href);
  });
});
