import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { optionalPeer } from '../src/index.ts';

describe('optionalPeer', () => {
  it('loads a peer the package can resolve, and gives null for one not installed', () => {
    const api = optionalPeer<{ trace: { getTracer: unknown } }>(import.meta.url, '@opentelemetry/api');
    expect(typeof api?.trace.getTracer).toBe('function');
    expect(optionalPeer(import.meta.url, '@gw/no-such-package')).toBeNull();
  });

  it('throws what a peer that is installed but broken throws, rather than calling it absent', () => {
    const app = mkdtempSync(join(tmpdir(), 'gw-peer-'));
    const peers: [string, string][] = [
      ['throws', 'throw new Error("broken on load")'],
      ['lacks-its-dependency', 'require("gw-not-installed-anywhere")'],
    ];
    for (const [name, body] of peers) {
      mkdirSync(join(app, 'node_modules', name), { recursive: true });
      writeFileSync(join(app, 'node_modules', name, 'index.js'), body);
    }
    const from = pathToFileURL(join(app, 'index.js')).href;
    expect(() => optionalPeer(from, 'throws')).toThrow('broken on load');
    expect(() => optionalPeer(from, 'lacks-its-dependency')).toThrow('gw-not-installed-anywhere');
    expect(optionalPeer(from, 'not-installed')).toBeNull();
  });
});
