import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Sandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw } from './io.ts';
import { authorisedOrdersFile, sandboxForFile } from './sandbox-harness.ts';

let sandbox: Sandbox;
sandboxForFile((started) => (sandbox = started));

describe('gw batch on a journal another run is using', () => {
  it('--resume exits 2 (usage/config) naming the holder, sends nothing, and the run goes on to refund each order once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-cli-lock-'));
    const orders = await authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), 150, { prefix: 'LOCK', amount: '9.00' });
    const ids = orders.map((o) => o.transaction_id);
    const refundRows = ['transaction_id,currency,amount,refund_amount,refund_reason', ...ids.map((id) => `${id},USD,9.00,4.00,lock test`)];
    writeFileSync(join(dir, 'refunds.csv'), `${refundRows.join('\n')}\n`);
    const flags = ['--base-url', sandbox.url, '--sandbox-defaults', '--reconcile', 'sandbox'];
    expect((await gw(['batch', 'capture', 'orders.csv', '--journal', 'capture.jsonl', ...flags], { cwd: dir })).status).toBe(EXIT_CODES.ok);

    sandbox.faults.setRules({ '/v1/refund': { latencyMs: 1_500 } });
    const run = gw(['batch', 'refund', 'refunds.csv', '--journal', 'refund.jsonl', ...flags], { cwd: dir });
    const journal = join(dir, 'refund.jsonl');
    while (!(existsSync(journal) && readFileSync(journal, 'utf8').includes('"type":"intent"'))) await sleep(10);
    const resume = await gw(['batch', 'refund', 'refunds.csv', '--journal', 'refund.jsonl', '--resume', ...flags], { cwd: dir });
    expect(resume.status).toBe(EXIT_CODES.usage);
    expect(resume.err).toContain('GW_CONFIG');
    expect(resume.err).toContain(`pid ${process.pid} on host ${hostname()}`);
    expect(resume.err).toContain('nothing was sent');

    const ran = await run;
    sandbox.faults.setRules({});
    expect(ran.status).toBe(EXIT_CODES.ok);
    for (const id of ids) expect(sandbox.state.orders.get(id)!.refunds.length).toBe(1);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  }, 60_000);
});
