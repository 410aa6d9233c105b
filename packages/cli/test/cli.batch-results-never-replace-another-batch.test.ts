import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw } from './io.ts';
import { authorisedOrdersFile, sandboxForFile } from './sandbox-harness.ts';

let sandbox: Sandbox;
sandboxForFile((started) => (sandbox = started));

describe('gw batch results files', () => {
  it('names the operation, so a query batch keeps the capture batch results, and refuses to replace them unasked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-results-'));
    await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), 3, { prefix: 'RES', amount: '2.00' });
    const flags = ['--base-url', sandbox.url, '--sandbox-defaults', '--reconcile', 'sandbox'];

    const capture = await gw(['batch', 'capture', 'orders.csv', '--journal', 'capture.jsonl', ...flags], { cwd: dir });
    expect(capture.status).toBe(EXIT_CODES.ok);
    expect(capture.out).toContain('results: orders.capture.results.csv');
    const captured = readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8');
    expect(captured.match(/succeeded/g)).toHaveLength(3);

    const query = await gw(['batch', 'query', 'orders.csv', '--journal', 'query.jsonl', ...flags], { cwd: dir });
    expect(query.status).toBe(EXIT_CODES.ok);
    expect(query.out).toContain('results: orders.query.results.csv');
    expect(readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8')).toBe(captured);
    expect(existsSync(join(dir, 'orders.query.results.csv'))).toBe(true);

    const requests = sandbox.state.requestCount;
    const again = await gw(['batch', 'capture', 'orders.csv', '--journal', 'capture-2.jsonl', ...flags], { cwd: dir });
    expect(again.status).toBe(EXIT_CODES.usage);
    expect(again.err).toContain('orders.capture.results.csv exists');
    expect(again.err).toContain('--results');
    expect(sandbox.state.requestCount).toBe(requests);
    expect(readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8')).toBe(captured);

    const chosen = await gw(['batch', 'capture', 'orders.csv', '--journal', 'capture-2.jsonl', '--results', 'second.csv', ...flags], { cwd: dir });
    expect(chosen.out).toContain('results: second.csv');
    expect(existsSync(join(dir, 'second.csv'))).toBe(true);
  });
});
