import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_DEFAULT_SECRET, startSandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { startProxy, type DriftReport } from '../src/index.ts';
import { CARD, clientAt, CVV, signer } from './support.ts';

describe('the sandbox answering with drift, through gw proxy', () => {
  it('an extra, a missing, a retyped field, an unknown status value and a wrong signature: each once, with path and count', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-proxy-'));
    const reportFile = join(dir, 'drift.json');
    await using sandbox = await startSandbox();
    await using proxy = await startProxy({ upstream: sandbox.url, verifier: signer, reportFile });
    const client = clientAt(proxy.url, { verifyResponses: false });
    const pay = (n: number) =>
      client.authoriseCard({
        order_no: `DRIFT-${n}`,
        currency: 'USD',
        amount: '40.00',
        card: CARD,
        expiration_month: '12',
        expiration_year: '2031',
        security_code: CVV,
      });
    const orders: Awaited<ReturnType<typeof pay>>[] = [];
    for (let n = 0; n < 3; n++) orders.push(await pay(n));
    const ref = (i: number) => ({ transaction_id: orders[i]!.transaction_id!, order_no: `DRIFT-${i}`, currency: 'USD', amount: '40.00' });
    await client.capture({ capture_orders: [ref(0)] });
    sandbox.answerDrift.set({
      capture: { add: { settlement_window: 'T+1' }, drop: ['capture_orders[].amount'], retype: ['capture_orders[].order_no'], wrongSignature: true },
    });
    await client.capture({ capture_orders: [ref(1)] });
    await client.capture({ capture_orders: [ref(2)] });
    sandbox.answerDrift.set({ authoriseCard: { add: { order_status: '7' } } });
    await pay(9);
    await proxy.settled();

    const report = JSON.parse(await readFile(reportFile, 'utf8')) as DriftReport;
    const found = report.drift.map(({ operation, kind, path, count }) => ({ operation, kind, path, count }));
    expect(found).toEqual(
      expect.arrayContaining([
        { operation: 'capture', kind: 'unknown-field', path: 'settlement_window', count: 2 },
        { operation: 'capture', kind: 'missing-field', path: 'capture_orders[].amount', count: 2 },
        { operation: 'capture', kind: 'wrong-type', path: 'capture_orders[].order_no', count: 2 },
        { operation: 'capture', kind: 'signature', path: 'encryption_data', count: 2 },
        { operation: 'authoriseCard', kind: 'new-value', path: 'order_status', count: 1 },
      ]),
    );
    expect(found).toHaveLength(5);
    const extra = report.drift.find((d) => d.kind === 'unknown-field')!;
    expect(extra).toMatchObject({ side: 'response', example: '"T+1"', seenType: 'string' });
    expect(report.drift.find((d) => d.kind === 'wrong-type')).toMatchObject({ seenType: 'number', message: 'must be of type string' });
    expect(report.observations.authoriseCard?.values.order_status?.counts).toEqual({ '1': 3, '7': 1 });
    expect(report.observations.capture?.fields['capture_orders[].amount']).toEqual({ places: 3, present: 1 });
  });

  it('card data sent in requests is nowhere in the report, not even where it is drift', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-proxy-'));
    const reportFile = join(dir, 'drift.json');
    await using sandbox = await startSandbox({ unknownFields: 'accept' });
    await using proxy = await startProxy({ upstream: sandbox.url, verifier: signer, reportFile });
    const client = clientAt(proxy.url, { unknownFields: 'send' });
    await client.authoriseCard({
      order_no: 'CARD-1',
      currency: 'USD',
      amount: '40.00',
      card: CARD,
      expiration_month: '12',
      expiration_year: '2031',
      security_code: CVV,
    });
    // A card number under a name the spec does not list: reported as an unknown field, by its shape only.
    await client.authoriseCard({
      order_no: 'CARD-2',
      currency: 'USD',
      amount: '40.00',
      card: CARD,
      security_code: CVV,
      card_copy: '5555444433332222',
    } as never);
    // Card data sent raw where the spec does not carry it (a capture), past the client's own checks.
    await fetch(`${proxy.url}/v1/capture`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ capture_orders: [], card: '4000056655665556', security_code: '321', expiration_year: '2033' }),
    });
    await proxy.settled();
    const text = await readFile(reportFile, 'utf8');
    for (const secret of [CARD, '5555444433332222', '4000056655665556', '"321"', '"2033"', SANDBOX_DEFAULT_SECRET]) expect(text, secret).not.toContain(secret);
    const report = JSON.parse(text) as DriftReport;
    expect(report.drift).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ operation: 'authoriseCard', side: 'request', kind: 'unknown-field', path: 'card_copy', example: '"9999999999999999"' }),
        expect.objectContaining({ operation: 'capture', side: 'request', kind: 'card-data', path: 'card', example: '9999999999999999' }),
        expect.objectContaining({ operation: 'capture', side: 'request', kind: 'card-data', path: 'security_code', example: '999' }),
      ]),
    );
  });
});
