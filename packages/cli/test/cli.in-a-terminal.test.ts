// gw driven as a person would: in a real terminal (tmux), reading the screen, pressing Ctrl-C.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorisedOrdersFile } from './sandbox-harness.ts';

const socket = `gw-test-${process.pid}`;
const bin = join(import.meta.dirname, '../src/bin.ts');
const gw = `${process.execPath} --conditions=@gw/source ${bin}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
}

/** Starts a command in a new tmux window of 140x40 and returns its name. */
function open(name: string, command: string): void {
  tmux('new-session', '-d', '-s', name, '-x', '140', '-y', '40', `${command}; echo GW_EXIT=$?; sleep 120`);
}

function screen(name: string): string {
  return tmux('capture-pane', '-p', '-J', '-S', '-400', '-t', name);
}

async function waitFor(name: string, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const text = screen(name);
    if (pattern.test(text)) return text;
    if (Date.now() > until) throw new Error(`timed out waiting for ${pattern} in:\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // no server left
  }
  await sandbox.stop();
});

describe('gw in a terminal', () => {
  it('shows --help and runs the demo: a table per step, a progress bar, a summary', async () => {
    open('help', `${gw} --help`);
    expect(await waitFor('help', /GW_EXIT=0/)).toContain('Exit status:');
    open('demo', `${gw} demo --orders 300`);
    const text = await waitFor('demo', /GW_EXIT=\d+/, 120_000);
    expect(text).toContain('GW_EXIT=0');
    for (const step of [
      'card payment with 3-D Secure',
      'issuer_url',
      'hosted checkout page',
      'partial refund',
      'subscription cancel',
      'payout',
      'drift report',
      'settlement_window',
      'batch capture of 300 orders',
      'Summary',
      'invariants hold',
    ]) {
      expect(text).toContain(step);
    }
    expect(text).toMatch(/300\/300 orders/);
    expect(text).not.toContain('4111111111111111');
  }, 150_000);

  it('shows batch progress, stops cleanly on Ctrl-C, and finishes with --resume: nothing captured twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-tty-'));
    const ids = (await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), 600, { prefix: 'TTY', amount: '5.00' })).map((o) => o.transaction_id);
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 400 } });
    const command = `cd ${dir} && ${gw} batch capture orders.csv --journal orders.journal.jsonl --base-url ${sandbox.url} --sandbox-defaults --reconcile sandbox --concurrency 1`;
    open('batch', command);
    // Some orders captured (the first progress line, 0/600, comes before any answer).
    await waitFor('batch', /[1-9]\d*\/600 orders/);
    tmux('send-keys', '-t', 'batch', 'C-c');
    const stopped = await waitFor('batch', /GW_EXIT=\d+/);
    expect(stopped, stopped).toContain('stopping: waiting for the requests in flight');
    expect(stopped).toContain('GW_EXIT=130');
    expect(stopped).toContain('--resume');
    const capturedBefore = [...sandbox.state.appliedCounts('capture').keys()].filter((k) => ids.includes(k)).length;
    expect(capturedBefore).toBeGreaterThan(0);
    expect(capturedBefore).toBeLessThan(600);

    sandbox.faults.setRules({});
    open('resume', `${command} --resume`);
    const finished = await waitFor('resume', /GW_EXIT=\d+/);
    expect(finished).toContain('GW_EXIT=0');
    expect(finished).toMatch(/succeeded\s*│?\s*600/);
    const applied = sandbox.state.appliedCounts('capture');
    for (const id of ids) expect(applied.get(id), id).toBe(1);
    const results = readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8').trim().split('\n');
    expect(results).toHaveLength(601);
  }, 150_000);
});
