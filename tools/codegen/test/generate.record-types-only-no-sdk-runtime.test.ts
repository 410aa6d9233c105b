import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/generate.ts';

const specPath = join(import.meta.dirname, '../../../spec/v1/openapi.yaml');

describe('what hey-api contributes', () => {
  it('record types only: no SDK functions, no fetch runtime, no hey-api ClientOptions in @gw/types', async () => {
    const files = await generate(specPath);
    const clientFiles = [...files.keys()].filter((path) => path.startsWith('packages/client/'));
    expect(clientFiles).toEqual(['packages/client/src/generated/methods.gen.ts']);
    const types = files.get('packages/types/src/generated/types.gen.ts')!;
    expect(types).not.toMatch(/\bClientOptions\b/);
    expect(types).toContain('export type CaptureRequest');
    for (const text of files.values()) expect(text).not.toMatch(/@hey-api\/client-fetch|from '\.\/client/);
  }, 60_000);
});
