import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type GwClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, TEST_CARDS, startSandbox, type AnswerDriftRule } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { gw, gwStarted } from './io.ts';

const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });

/** Every rule kind the sandbox offers, on every operation, at the top, inside array elements and in nested records. */
const RULES: Record<string, AnswerDriftRule> = {
  authoriseCard: { add: { settlement_window: 'T+1' }, drop: ['result_info'], wrongSignature: true },
  authoriseAlternative: { add: { issuer_hint: 'pix' }, drop: ['issuer_url'], wrongSignature: true },
  checkout: { drop: ['orderNo'] },
  query: {
    add: { 'orders_list[].settled_at': '2026' },
    drop: ['orders_list[].transaction_date', 'orders_list[].delivery_information.delivery_city'],
    retype: ['orders_list[].delivery_information.delivery_state', 'return_status'],
  },
  capture: { add: { 'capture_orders[].settled_at': '2026' }, drop: ['capture_orders[].amount'], retype: ['capture_orders[].order_no'], wrongSignature: true },
  refund: { add: { refund_batch: 'B1' }, drop: ['refund_orders[].refund_amount'], retype: ['refund_orders[].refund_status'], wrongSignature: true },
  review: { drop: ['review_orders[].currency'], retype: ['review_orders[].review_status'], wrongSignature: true },
  cancel: { drop: ['cancel_orders[].transaction_id'], retype: ['cancel_orders[].amount'], wrongSignature: true },
  cancelSubscription: { add: { cancelled_at: '2026' }, drop: ['cancel_status'], retype: ['error_message'], wrongSignature: true },
  payout: {
    add: { 'beneficiary.bank_details.iban_hint': 'PT' },
    drop: ['beneficiary.bank_details.swift_code'],
    retype: ['beneficiary.bank_details.account_number', 'beneficiary.first_name'],
    wrongSignature: true,
  },
};

/** The report entries the rules must give: add → unknown-field, drop → missing-field, retype → wrong-type, a bad signature. */
function expectedEntries(): { operation: string; kind: string; path: string }[] {
  return Object.entries(RULES).flatMap(([operation, rule]) => [
    ...Object.keys(rule.add ?? {}).map((path) => ({ operation, kind: 'unknown-field', path })),
    ...(rule.drop ?? []).map((path) => ({ operation, kind: 'missing-field', path })),
    ...(rule.retype ?? []).map((path) => ({ operation, kind: 'wrong-type', path })),
    ...(rule.wrongSignature ? [{ operation, kind: 'signature', path: 'encryption_data' }] : []),
  ]);
}

/** The client's own judgment of a drifting answer (it may refuse one) is not what is tested here: the proxy's is. */
const ignored = (call: Promise<unknown>): Promise<unknown> => call.catch(() => undefined);

/** One call of every operation; batch operations only in the drifting round, so their elements have no earlier answer. */
async function everyOperation(client: GwClient, tag: string, batches: boolean): Promise<void> {
  const card = { currency: 'USD', amount: '40.00', card: TEST_CARDS.approved, expiration_month: '12', expiration_year: '2031', security_code: '737' };
  const one = await client.authoriseCard({ ...card, order_no: `${tag}-1` });
  const two = await client.authoriseCard({ ...card, order_no: `${tag}-2` });
  const sub = await client.authoriseCard({
    ...card,
    order_no: `${tag}-3`,
    subscription: { contract_name: 'Gold', interval: 'day', interval_count: '30', billing_cycle: 12 },
  });
  await ignored(
    client.authoriseAlternative({
      order_no: `${tag}-4`,
      currency: 'BRL',
      amount: '80.00',
      payment_method: 'PIX',
      return_url: 'https://shop.example.test/back',
    }),
  );
  await ignored(client.checkout({ order_no: `${tag}-5`, currency: 'USD', amount: '59.90', return_url: 'https://shop.example.test/ok' }));
  await ignored(client.query({ transaction_id: [one.transaction_id!] }));
  await ignored(client.cancelSubscription({ recurring_id: sub.recurring_id, contract_name: 'Gold' }));
  await ignored(
    client.payout({
      request_id: crypto.randomUUID(),
      payment_amount: '250.00',
      payment_currency: 'USD',
      source_amount: '250.00',
      source_currency: 'USD',
      payment_method: 'SWIFT',
      fee_paid_by: 'PAYER',
      beneficiary: { first_name: 'Rui', last_name: 'Costa', entity_type: 'COMPANY', bank_details: { account_number: '12345678', swift_code: 'BANKPTPL' } },
    }),
  );
  if (!batches) return;
  const ref = (r: typeof one, n: number) => ({ transaction_id: r.transaction_id!, order_no: `${tag}-${n}`, currency: 'USD', amount: '40.00' });
  await ignored(client.capture({ capture_orders: [ref(one, 1)] }));
  await ignored(client.refund({ refund_orders: [{ ...ref(one, 1), refund_amount: '20.00', refund_reason: 'damaged' }] }));
  await ignored(client.review({ review_orders: [{ ...ref(two, 2), review_flag: '1' }] }));
  const three = await client.authoriseCard({ ...card, order_no: `${tag}-6` });
  await ignored(client.cancel({ cancel_orders: [ref(three, 6)] }));
}

describe('every drift rule of the sandbox, through gw proxy, then gw spec drift', () => {
  it('each rule kind on each operation is in the report and the summary; the header agrees with the lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gw-cli-rules-'));
    await using sandbox = await startSandbox();
    const proxy = await gwStarted(
      ['proxy', '--upstream', sandbox.url, '--port', '0', '--report', 'drift.json', '--secret-env', 'GW_TEST_SECRET'],
      /on (http:\/\/127\.0\.0\.1:\d+)/,
      { cwd: dir, env: { GW_TEST_SECRET: SANDBOX_DEFAULT_SECRET } },
    );
    const client = createClient({ baseUrl: proxy.url, ...SANDBOX_DEFAULT_MERCHANT, signer, verifyResponses: false });
    await everyOperation(client, 'CLEAN', false);
    // Switched on as a team would: the sandbox's control API.
    const put = await fetch(`${sandbox.url}/sandbox/api/drift`, { method: 'PUT', body: JSON.stringify(RULES) });
    expect(put.status, await put.clone().text()).toBe(200);
    await everyOperation(client, 'DRIFT', true);
    expect(await proxy.stop()).toBe(0);

    const report = JSON.parse(await readFile(join(dir, 'drift.json'), 'utf8'));
    const found = report.drift.map(({ operation, kind, path }: Record<string, string>) => ({ operation, kind, path }));
    const expected = expectedEntries();
    expect(found).toEqual(expect.arrayContaining(expected));
    expect(found).toHaveLength(expected.length);

    const summary = await gw(['spec', 'drift', 'drift.json'], { cwd: dir });
    expect(summary.status).toBe(13);
    for (const { operation, kind, path } of expected) {
      const section = summary.out.slice(summary.out.indexOf(`${operation}: `));
      expect(section, `${operation} ${kind} ${path}`).toContain(`  response ${kind} ${path}: `);
    }
    // The header counts the same signature entries the lines show, never "verified" beside a line that does not verify.
    const signed = Object.keys(RULES).filter((operation) => RULES[operation]!.wrongSignature);
    const entries = report.drift.filter((entry: { kind: string }) => entry.kind === 'signature') as { operation: string; count: number }[];
    expect(entries.map((entry) => entry.operation).sort()).toEqual([...signed].sort());
    const failures = entries.reduce((sum, entry) => sum + entry.count, 0);
    const header = summary.out.split('\n')[0]!;
    expect(header).not.toContain('signatures verified');
    expect(header).toContain(`signatures checked: ${failures} answer(s) of ${entries.map((entry) => entry.operation).join(', ')} did not verify`);
    expect(summary.out.match(/response signature encryption_data: does not verify/g)).toHaveLength(signed.length);
  }, 60_000);
});
