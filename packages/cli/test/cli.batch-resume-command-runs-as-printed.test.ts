// A batch stopped part way prints the exact command that resumes it: the flags it was given (files as absolute
// paths), the batch's id, --resume, and its secrets as environment variables (never their values). Each test runs
// `gw` as a real process from a shell (`gw` on PATH, as a team has it), stops it (Ctrl-C, or its ledger out of reach),
// then runs the printed command verbatim in a shell elsewhere: it finishes the batch, each order captured once.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, type Sandbox } from '@gw/sandbox';
import type { CaptureOrder } from '@gw/test-support';
import { describe, expect, it } from 'vitest';
import type { Cluster } from '@gw/test-postgres';
import { EXIT_CODES } from '../src/index.ts';
import { authorisedOrdersFile, sandboxAndLedgerForFile } from './sandbox-harness.ts';

const BIN = join(import.meta.dirname, '../src/bin.ts');
const ORDERS = 400;

let sandbox: Sandbox;
let cluster: Cluster;
let database: string;
/** A folder with `gw` in it, as a team's PATH has it. */
let bin: string;
sandboxAndLedgerForFile('cli_resume', (started) => {
  ({ sandbox, cluster, ledger: database } = started);
  bin = mkdtempSync(join(tmpdir(), 'gw-bin-'));
  writeFileSync(join(bin, 'gw'), `#!/bin/sh\nexec '${process.execPath}' --conditions=@gw/source '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'gw'), 0o755);
});

/** A shell command run with `gw` on PATH and `env` added; `until` tells when to send it Ctrl-C (SIGINT). */
function shell(line: string, cwd: string, env: Record<string, string>, until?: () => boolean): Promise<{ status: number; out: string; err: string }> {
  // `exec`: the shell becomes gw, so the signal reaches it as Ctrl-C would.
  const child = spawn('/bin/sh', ['-c', `exec ${line}`], {
    cwd,
    env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const watch = until ? setInterval(() => until() && (clearInterval(watch!), child.kill('SIGINT')), 5) : null;
  return new Promise((resolve) => child.on('close', (code) => (clearInterval(watch!), resolve({ status: code ?? -1, out, err }))));
}

/** The command the stop printed, and the environment variables it says to set. */
function printedCommand(err: string): { line: string; env: string[] } {
  const [, line, set] = /(?:Resume it with|then resume the batch[^\n]*):\n {2}(gw batch [^\n]+)(?:\nwith (.+) set in the environment)?/.exec(err) ?? [];
  expect(line, err).toBeDefined();
  return { line: line!, env: [...(set ?? '').matchAll(/\b(GW_[A-Z_]+)\b/g)].map((m) => m[1]!) };
}

const captures = () => sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;

const capturedOnce = (orders: readonly CaptureOrder[]) => orders.filter((o) => sandbox.state.appliedCounts('capture').get(o.transaction_id) !== 1);

/** The gateway's flags as a team types them: its merchant, account and secret (the secret as a flag, on purpose). */
const gateway = () =>
  `--base-url ${sandbox.url} --merchant-id ${SANDBOX_DEFAULT_MERCHANT.merchantId} --account-id ${SANDBOX_DEFAULT_MERCHANT.accountId} --secret ${SANDBOX_DEFAULT_SECRET} --reconcile sandbox --concurrency 1`;

describe('the command a stopped gw batch prints', () => {
  it('journal, Ctrl-C: runs as printed from another folder, with GW_SECRET set, and finishes the batch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-resume-journal-'));
    const orders = await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), ORDERS, { prefix: 'RJ', amount: '7.00' });
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 100 } });
    const journal = join(dir, 'captures.jsonl');
    const stopped = await shell(
      `gw batch capture orders.csv --journal captures.jsonl ${gateway()}`,
      dir,
      {},
      () => existsSync(journal) && (readFileSync(journal, 'utf8').match(/"type":"outcomes"/g)?.length ?? 0) >= 2,
    );
    sandbox.faults.setRules({});
    expect(stopped.status).toBe(EXIT_CODES.interrupted);
    expect(stopped.err).not.toContain(SANDBOX_DEFAULT_SECRET);
    const { line, env } = printedCommand(stopped.err);
    expect(line).toBe(
      `gw batch capture ${join(dir, 'orders.csv')} --journal ${journal} --base-url ${sandbox.url} --merchant-id ${SANDBOX_DEFAULT_MERCHANT.merchantId} --account-id ${SANDBOX_DEFAULT_MERCHANT.accountId} --secret "$GW_SECRET" --concurrency 1 --reconcile sandbox --resume`,
    );
    expect(env).toEqual(['GW_SECRET']);

    const elsewhere = mkdtempSync(join(tmpdir(), 'gw-resume-elsewhere-'));
    const resumed = await shell(line, elsewhere, { GW_SECRET: SANDBOX_DEFAULT_SECRET });
    expect(resumed.err).toBe('');
    expect(resumed.status).toBe(EXIT_CODES.ok);
    expect(readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8').match(/,succeeded,/g)).toHaveLength(ORDERS);
    expect(capturedOnce(orders)).toEqual([]);
  });

  it('ledger with a password in its URL, Ctrl-C: the URL is never printed; the command runs as printed with GW_LEDGER_URL set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-resume-ledger-'));
    const orders = await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), ORDERS, { prefix: 'RL', amount: '8.00' });
    // The test cluster trusts every connection: the password is carried, not checked.
    const ledger = database.replace('postgres@', 'postgres:hunter2@');
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 100 } });
    const before = captures();
    const stopped = await shell(`gw batch capture orders.csv --ledger ${ledger} --batch resume-me ${gateway()}`, dir, {}, () => captures() >= before + 2);
    sandbox.faults.setRules({});
    expect(stopped.status).toBe(EXIT_CODES.interrupted);
    expect(`${stopped.out}${stopped.err}`).not.toContain('hunter2');
    const { line, env } = printedCommand(stopped.err);
    expect(line).toContain('--ledger "$GW_LEDGER_URL" --batch resume-me --resume');
    expect(env.sort()).toEqual(['GW_LEDGER_URL', 'GW_SECRET']);

    const resumed = await shell(line, mkdtempSync(join(tmpdir(), 'gw-resume-elsewhere-')), { GW_SECRET: SANDBOX_DEFAULT_SECRET, GW_LEDGER_URL: ledger });
    expect(resumed.err).toBe('');
    expect(resumed.status).toBe(EXIT_CODES.ok);
    expect(capturedOnce(orders)).toEqual([]);
  });

  it('ledger out of reach past --ledger-outage-ms: exit 130, and the printed command finishes the batch once the database is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-resume-outage-'));
    const orders = await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), ORDERS, { prefix: 'RO', amount: '9.00' });
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 100 } });
    let halted = false;
    const before = captures();
    const stopping = shell(
      `gw batch capture orders.csv --ledger ${database} --batch outage-1 --ledger-outage-ms 500 --lease-ms 2000 --timeout-ms 1000 --send-margin-ms 200 ${gateway()}`,
      dir,
      {},
    );
    while (captures() < before + 2) await sleep(5);
    cluster.halt();
    halted = true;
    const stopped = await stopping;
    sandbox.faults.setRules({});
    cluster.restart();
    expect(halted).toBe(true);
    expect(stopped.status).toBe(EXIT_CODES.interrupted);
    const { line } = printedCommand(stopped.err);
    expect(line).toContain(`--ledger ${database} --batch outage-1 --resume`);
    expect(line).toContain('--lease-ms 2000 --ledger-outage-ms 500');

    mkdirSync(join(dir, 'later'));
    const resumed = await shell(line, join(dir, 'later'), { GW_SECRET: SANDBOX_DEFAULT_SECRET });
    expect(resumed.err, stopped.err).toBe('');
    expect(resumed.status).toBe(EXIT_CODES.ok);
    expect(capturedOnce(orders)).toEqual([]);
  });

  it('a throttle asking longer than --max-throttle-wait-ms: exit 130, and the printed command finishes the batch once the gateway lets it through', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-resume-throttled-'));
    const orders = await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), ORDERS, { prefix: 'RT', amount: '6.00' });
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 50, retryAfterSeconds: 30 } });
    const before = captures();
    const stopping = shell(`gw batch capture orders.csv --journal throttled.jsonl --max-throttle-wait-ms 5000 ${gateway()}`, dir, {});
    while (captures() < before + 2) await sleep(2);
    sandbox.faults.inject('/v1/capture', 'http-429');
    const stopped = await stopping;
    sandbox.faults.setRules({});
    expect(stopped.status).toBe(EXIT_CODES.interrupted);
    expect(stopped.err).toMatch(/the gateway asked it to wait 30 s .* longer than maxThrottleWaitMs \(5000 ms\)/);
    const { line } = printedCommand(stopped.err);
    expect(line).toContain('--max-throttle-wait-ms 5000');

    const resumed = await shell(line, dir, { GW_SECRET: SANDBOX_DEFAULT_SECRET });
    expect(resumed.err).toBe('');
    expect(resumed.status).toBe(EXIT_CODES.ok);
    expect(capturedOnce(orders)).toEqual([]);
  });
});
