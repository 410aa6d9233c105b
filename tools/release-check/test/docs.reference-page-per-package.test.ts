import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { operations } from '@gw/types';
import { describe, expect, it } from 'vitest';
import { writeReference } from '../api/docs.ts';
import { publishable, repoRoot } from '../pack.ts';

describe('pnpm docs: the API reference', () => {
  it('one page per package with every export, the client methods with their generated doc comments', () => {
    const out = mkdtempSync(join(tmpdir(), 'gw-docs-'));
    try {
      const written = writeReference(repoRoot, out);
      expect(written).toHaveLength(publishable().length + 1);
      const client = readFileSync(join(out, 'client.html'), 'utf8');
      expect(client).toContain('<h2 id="createClient">createClient</h2>');
      expect(client).toContain('Creates a client');
      for (const name of Object.keys(operations)) expect(client).toMatch(new RegExp(`\\b${name}\\((request|selection):`));
      expect(client).toContain('Capture transactions.');
      const index = readFileSync(join(out, 'index.html'), 'utf8');
      expect(index).toContain('href="spec.html"');
      for (const { name } of publishable()) expect(index).toContain(`${name.split('/').pop()}.html`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
