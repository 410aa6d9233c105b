import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { runBatch, type BatchClient } from '@gw/batch';
import { createClient } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, TEST_CARDS, sandboxReconciler, startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import type { CliIo } from '../io.ts';
import { paint, say, table } from '../output.ts';
import { progressReporterFor, summaryTable } from './batch.ts';

type Row = [string, string | number];
type AnyClient = Record<string, (request: Record<string, unknown>) => Promise<any>>;

/** `gw demo`: an embedded sandbox and every operation through the client, a table per step and a summary. */
export function registerDemo(program: Command, io: CliIo, run: { exitCode: number }): void {
  program
    .command('demo')
    .description('start an embedded sandbox and walk every operation through the client, ending with a 1,000-order batch capture')
    .option('--orders <n>', 'orders in the closing batch capture', '1000')
    .action(async (options: { orders: string }) => {
      // try/finally rather than `await using`: Node 22 runs these sources without a syntax transform.
      const sandbox = await startSandbox({ seed: 7 });
      try {
        const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
        const client = createClient({ baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer, verifier: signer }) as unknown as AnyClient;
        say(io, `${paint(io, 'bold', 'gw demo')}: embedded sandbox at ${sandbox.url}, merchant ${SANDBOX_DEFAULT_MERCHANT.merchantId} / ${SANDBOX_DEFAULT_MERCHANT.accountId}\n`);
        const summary: (string | number)[][] = [];
        const step = async (name: string, body: () => Promise<Row[]>) => {
          const started = performance.now();
          try {
            const rows = await body();
            const ms = Math.round(performance.now() - started);
            say(io, `${paint(io, 'cyan', `== ${name}`)} (${ms} ms)`);
            say(io, table(io, ['field', 'value'], rows.map(([k, v]) => [k, String(v)])));
            say(io);
            summary.push([name, paint(io, 'green', 'ok'), ms]);
          } catch (error) {
            summary.push([name, paint(io, 'red', `failed: ${(error as { code?: string }).code ?? ''} ${(error as Error).message}`), Math.round(performance.now() - started)]);
            run.exitCode = 1;
          }
        };
        const order = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;
        const card = { currency: 'USD', card: TEST_CARDS.approved, expiration_month: '12', expiration_year: '2030', security_code: '123', first_name: 'Ana', last_name: 'Lee', billing_country: 'PT' };
        let paid: Record<string, any> = {};
        const cardOrderNo = order('CARD');

        await step('card payment with 3-D Secure and risk results', async () => {
          paid = await client.authoriseCard!({ ...card, order_no: cardOrderNo, amount: '129.90', open3d: 'do3DS', subscription: { contract_name: 'Gold plan', contract_amount: '9.90', interval: 'day', interval_count: '30', billing_cycle: 12 } });
          return [['order_no', cardOrderNo], ['transaction_id', paid.transaction_id], ['card (masked)', paid.card], ['order_status', paid.order_status], ['result_info', paid.result_info], ['threeds_result', paid.threeds_result], ['risk_action', paid.risk_action], ['risk_score', paid.risk_score], ['recurring_id', paid.recurring_id]];
        });
        await step('alternative payment method (issuer_url)', async () => {
          const alt = await client.authoriseAlternative!({ order_no: order('ALT'), currency: 'BRL', amount: '80.00', payment_method: 'PIX', return_url: 'https://shop.example.test/back' });
          return [['order_no', alt.order_no], ['issuer_url', alt.issuer_url]];
        });
        await step('hosted checkout page, decoded', async () => {
          const page = await client.checkout!({ order_no: order('CHK'), currency: 'USD', amount: '59.90', return_url: 'https://shop.example.test/ok', cancel_url: 'https://shop.example.test/cancel' });
          return [['form action', page.action], ['method', page.method], ['auto-submits', page.autoSubmit ? 'yes' : 'no'], ['hidden fields', page.entries.length], ['allParams parameters', page.allParams?.entries.length ?? 0], ['orderNo / orderAmount', `${page.fields.orderNo} / ${page.fields.orderAmount}`]];
        });
        const ids = () => ({ transaction_id: paid.transaction_id, order_no: cardOrderNo, currency: 'USD', amount: '129.90' });
        await step('query', async () => {
          const answer = await client.query!({ order_no: cardOrderNo });
          const q = answer.orders_list[0];
          return [['return_status', answer.return_status], ['transaction_id', q.transaction_id], ['payment_status', `${q.payment_status} (sandbox: authorised)`], ['transaction_date', q.transaction_date], ['is3ds', q.is3ds]];
        });
        await step('capture', async () => {
          const answer = await client.capture!({ capture_orders: [ids()] });
          return [['return_status', answer.return_status], ['capture_status', answer.capture_orders[0].capture_status], ['error_message', answer.capture_orders[0].error_message || '(none)']];
        });
        await step('partial refund', async () => {
          const answer = await client.refund!({ refund_orders: [{ ...ids(), refund_amount: '29.90', refund_reason: 'one item returned' }] });
          const r = answer.refund_orders[0];
          return [['refund_status', r.refund_status], ['refund_message', r.refund_message], ['refund_reference_id', r.refund_reference_id], ['refunded / captured', '29.90 / 129.90']];
        });
        await step('review', async () => {
          const other = await client.authoriseCard!({ ...card, order_no: order('REV'), amount: '45.00' });
          const answer = await client.review!({ review_orders: [{ transaction_id: other.transaction_id, order_no: other.order_no, currency: 'USD', amount: '45.00', review_flag: '1' }] });
          return [['review_status', answer.review_orders[0].review_status], ['review_flag', '1 (approve)']];
        });
        await step('cancel', async () => {
          const other = await client.authoriseCard!({ ...card, order_no: order('CAN'), amount: '15.00' });
          const answer = await client.cancel!({ cancel_orders: [{ transaction_id: other.transaction_id, order_no: other.order_no, currency: 'USD', amount: '15.00' }] });
          return [['cancel_status', answer.cancel_orders[0].cancel_status], ['error_message', answer.cancel_orders[0].error_message || '(none)']];
        });
        await step('subscription cancel', async () => {
          const answer = await client.cancelSubscription!({ recurring_id: paid.recurring_id, contract_name: 'Gold plan' });
          return [['recurring_id', answer.recurring_id], ['cancel_status', answer.cancel_status], ['subscription now', String(sandbox.state.subscriptions.get(paid.recurring_id)?.status)]];
        });
        await step('payout', async () => {
          const answer = await client.payout!({ request_id: randomUUID(), payment_amount: '250.00', payment_currency: 'USD', source_amount: '250.00', source_currency: 'USD', payment_method: 'SWIFT', fee_paid_by: 'PAYER', beneficiary: { first_name: 'Rui', last_name: 'Costa', entity_type: 'COMPANY', bank_details: { account_number: '12345678', swift_code: 'BANKPTPL' } } });
          return [['status', answer.status], ['transaction_id', answer.transaction_id], ['short_reference_id', answer.short_reference_id], ['amount_beneficiary_receives', answer.amount_beneficiary_receives], ['local_clearing_system', answer.beneficiary?.bank_details?.local_clearing_system]];
        });
        const count = Number(options.orders);
        await step(`batch capture of ${count} orders`, async () => {
          const orders: Record<string, string>[] = [];
          for (let i = 0; i < count; i += 50) {
            await Promise.all(Array.from({ length: Math.min(50, count - i) }, async (_, k) => {
              const order_no = order(`B${i + k}`);
              const r = await client.authoriseCard!({ ...card, order_no, amount: '10.00' });
              orders[i + k] = { transaction_id: r.transaction_id, order_no, currency: 'USD', amount: '10.00' };
            }));
          }
          const progress = progressReporterFor(io);
          const result = await runBatch({ client: client as unknown as BatchClient, operation: 'capture', orders, concurrency: 4, reconcile: sandboxReconciler, onProgress: (p) => progress.update(p) });
          progress.stop();
          say(io, summaryTable(io, result));
          return [['orders', count], ['requests (50 orders each)', Math.ceil(count / 50)], ['succeeded', result.counts.succeeded], ['failed / rejected / unknown', `${result.counts.failed} / ${result.counts.rejected} / ${result.counts.unknown}`], ['seconds', (result.durationMs / 1000).toFixed(2)]];
        });
        say(io, paint(io, 'bold', 'Summary'));
        say(io, table(io, ['step', 'result', 'ms'], summary));
        say(io, `sandbox: ${sandbox.state.orders.size} orders, ${sandbox.state.requestCount} requests, invariants ${sandbox.state.invariantViolations().length === 0 ? 'hold' : 'BROKEN'}`);
      } finally {
        await sandbox.stop();
      }
    });
}
