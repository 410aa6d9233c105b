import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, TEST_CARDS, startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { demoSteps } from '../src/demo/demo-steps.ts';
import { capturedIo, gw, gwStarted } from './io.ts';

const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });

describe('gw demo through gw proxy to the untouched sandbox', () => {
  it('every demo step, unknown orders and refused elements: spec drift exits 0 with an empty report', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-cli-clean-'));
    await using sandbox = await startSandbox({ seed: 7 });
    const proxy = await gwStarted(
      ['proxy', '--upstream', sandbox.url, '--port', '0', '--report', 'drift.json', '--secret-env', 'GW_TEST_SECRET'],
      /on (http:\/\/127\.0\.0\.1:\d+)/,
      { cwd: dir, env: { GW_TEST_SECRET: SANDBOX_DEFAULT_SECRET } },
    );
    const client = createClient({ baseUrl: proxy.url, ...SANDBOX_DEFAULT_MERCHANT, signer, verifier: signer });
    // The drift step drives its own proxy in front of a sandbox told to drift: the one step left out here.
    const steps = demoSteps({ io: capturedIo().io, client: client as never, sandbox, orders: 60 }).filter(([name]) => !name.startsWith('drift report'));
    for (const [name, body] of steps) await expect(body(), name).resolves.toBeDefined();
    // Answer paths past the demo's happy ones: unknown orders queried and captured, a declined card, a second capture.
    await client.query({ order_no: 'NOT-THERE' });
    await client.query({ transaction_id: ['NOPE-1', 'NOPE-2'] });
    const card = { currency: 'USD', amount: '10.00', card: TEST_CARDS.approved, expiration_month: '12', expiration_year: '2030', security_code: '937' };
    const paid = await client.authoriseCard({ ...card, order_no: 'CLEAN-1' });
    await client.authoriseCard({ ...card, order_no: 'CLEAN-2', card: TEST_CARDS.declined });
    const ref = { transaction_id: paid.transaction_id!, order_no: 'CLEAN-1', currency: 'USD', amount: '10.00' };
    await client.capture({ capture_orders: [ref, { ...ref, transaction_id: 'NOPE-3', order_no: 'NOPE-3' }] });
    await client.capture({ capture_orders: [ref] });
    await client.refund({ refund_orders: [{ ...ref, refund_amount: '99.00', refund_reason: 'more than captured' }] });
    await client.review({ review_orders: [{ ...ref, transaction_id: 'NOPE-4', review_flag: '1' }] });
    await client.cancel({ cancel_orders: [ref] });
    await client.authoriseCard({ ...card, order_no: 'CLEAN-3', card: TEST_CARDS.threeDsRequired });
    await client.authoriseCard({ ...card, order_no: 'CLEAN-4', card: TEST_CARDS.riskReject });
    await client.cancelSubscription({ recurring_id: 'NOPE-5', contract_name: 'Gold plan' }).catch(() => undefined);
    await client.query({ order_no: 'CLEAN-1,CLEAN-2,CLEAN-3,CLEAN-4,NOT-THERE' });
    expect(await proxy.stop()).toBe(0);

    const summary = await gw(['spec', 'drift', 'drift.json'], { cwd: dir });
    const report = JSON.parse(await readFile(join(dir, 'drift.json'), 'utf8'));
    expect(report.drift).toEqual([]);
    expect(summary.out).toContain('no drift: every exchange matched the spec');
    expect(summary.status).toBe(0);
    expect(report.exchanges).toBeGreaterThan(70);
  }, 60_000);
});
