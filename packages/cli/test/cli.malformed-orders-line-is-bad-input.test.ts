import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw } from './io.ts';
import { sandboxForFile } from './sandbox-harness.ts';

let sandbox: Sandbox;
sandboxForFile((started) => (sandbox = started));

describe('gw batch with a malformed orders file', () => {
  it('exits 7, names the file and line, says how to fix it, sends nothing and never echoes the line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-bad-'));
    writeFileSync(join(dir, 'orders.csv'), 'transaction_id,order_no,currency,amount\nT1,O1,USD,1.00\nT2,"O2,USD,4111111111111111\n');
    const before = sandbox.state.requestCount;
    const result = await gw(['batch', 'capture', 'orders.csv', '--journal', 'j.jsonl', '--base-url', sandbox.url, '--sandbox-defaults'], { cwd: dir });
    expect(result.status).toBe(EXIT_CODES.decode);
    expect(result.err).toContain('GW_DECODE');
    expect(result.err).toContain('orders.csv, line 3');
    expect(result.err).toMatch(/Nothing was sent\. Correct line 3/);
    expect(result.err).not.toContain('unexpected failure');
    expect(result.err + result.out).not.toContain('4111111111111111');
    expect(sandbox.state.requestCount).toBe(before);
  });

  it('on --resume, says that --resume finishes the batch once the line is fixed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-bad-'));
    writeFileSync(join(dir, 'orders.jsonl'), '{"transaction_id":"T1","order_no":"O1","currency":"USD","amount":"1.00"}\n{"order_no":"O2","amount":1}\n');
    writeFileSync(join(dir, 'j.jsonl'), '');
    const result = await gw(['batch', 'capture', 'orders.jsonl', '--journal', 'j.jsonl', '--resume', '--base-url', sandbox.url, '--sandbox-defaults'], {
      cwd: dir,
    });
    expect(result.status).toBe(EXIT_CODES.decode);
    expect(result.err).toContain('orders.jsonl, line 2');
    // The command that resumes it, as it can be run from any folder.
    expect(result.err).toContain(
      `then resume the batch (orders already taken in are not sent again):\n  gw batch capture ${join(dir, 'orders.jsonl')} --journal ${join(dir, 'j.jsonl')} --base-url ${sandbox.url} --sandbox-defaults --resume`,
    );
  });
});
