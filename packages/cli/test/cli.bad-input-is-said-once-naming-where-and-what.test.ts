import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw as run } from './io.ts';

// Nothing listens on port 9 of loopback: every case here is refused before a request could be sent.
const NOWHERE = ['--base-url', 'http://127.0.0.1:9', '--sandbox-defaults'];

const gw = (args: string[], options: { stdin?: string; terminal?: boolean } = {}) => run(args, { ...options, env: { NO_COLOR: '1' } });

describe('gw call with bad input', () => {
  it('bad JSON on standard input: exit 3 (bad input), naming standard input and the line and column', async () => {
    const result = await gw(['call', 'capture', '--data', '-', ...NOWHERE], { stdin: '{"capture_orders": [{"order_no": "A-1",, }]}', terminal: true });
    expect(result.status).toBe(EXIT_CODES.validation);
    // The reason is V8's (its wording differs between Node 22 and 24); the place is gw's.
    expect(result.err).toMatch(/^gw: GW_VALIDATION: standard input is not valid JSON: [^\n]+ at line 1, column 40\n$/);
  });

  it('bad JSON in a file names the file and the line where it stops; an empty file says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-json-'));
    writeFileSync(join(dir, 'capture.json'), '{\n  "capture_orders": [\n    {"order_no": "A-1"}\n  \n');
    const broken = await gw(['call', 'capture', '--data', join(dir, 'capture.json'), ...NOWHERE], { terminal: true });
    expect(broken.status).toBe(EXIT_CODES.validation);
    expect(broken.err).toContain(`${join(dir, 'capture.json')} is not valid JSON: `);
    expect(broken.err).toMatch(/ at line 5, column 1\n$/);
    const empty = await gw(['call', 'capture', '--data', '-', ...NOWHERE], { stdin: '  \n', terminal: true });
    expect(empty.err).toBe('gw: GW_VALIDATION: standard input is empty\n');
  });

  it('a field spelled another way gets "did you mean" with the name the spec lists at that place', async () => {
    const record = { capture_orders: [{ order_number: 'A-1', transaction_id: 'T1', currency: 'USD', amt: '1.00' }] };
    const result = await gw(['call', 'capture', '--data', '-', ...NOWHERE], { stdin: JSON.stringify(record), terminal: true });
    expect(result.status).toBe(EXIT_CODES.validation);
    expect(result.err).toContain('capture_orders[0].order_number: is not a field the spec lists here; did you mean `order_no`?');
    expect(result.err).toContain('capture_orders[0].amt: is not a field the spec lists here; did you mean `amount`?');
    // Not a guess the spec does not back: a name with no listed counterpart at its place gets none.
    const other = await gw(['call', 'capture', '--data', '-', ...NOWHERE], {
      stdin: JSON.stringify({ capture_orders: [{ order_no: 'A-1', colour: 'red' }] }),
      terminal: true,
    });
    expect(other.err).toContain('capture_orders[0].colour: is not a field the spec lists here');
    expect(other.err).not.toContain('did you mean');
  });

  it('an error is said once: one line on a terminal, only the typed JSON off a terminal', async () => {
    const stdin = JSON.stringify({ capture_orders: [{ order_number: 'A-1' }] });
    const terminal = await gw(['call', 'capture', '--data', '-', ...NOWHERE], { stdin, terminal: true });
    expect(terminal.err.trimEnd().split('\n')).toHaveLength(1);
    expect(terminal.err).toMatch(/^gw: GW_VALIDATION: capture: 1 problem in CaptureRequest: /);
    const piped = await gw(['call', 'capture', '--data', '-', ...NOWHERE], { stdin });
    expect(JSON.parse(piped.err)).toMatchObject({
      exitStatus: 3,
      error: {
        code: 'GW_VALIDATION',
        details: { problems: [{ field: 'capture_orders[0].order_number', message: expect.stringContaining('did you mean `order_no`?') }] },
      },
    });
    expect(piped.out).toBe('');
  });
});
