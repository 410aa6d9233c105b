import { randomUUID } from 'node:crypto';
import { runBatch, type BatchClient } from '@gw/batch';
import { TEST_CARDS, sandboxReconciler, type Sandbox } from '@gw/sandbox';
import type { CliIo } from '../io.ts';
import { say } from '../output.ts';
import { progressReporterFor, summaryTable } from '../commands/batch-progress.ts';
import { driftStep } from './drift-step.ts';

/** One row of a step's table. */
export type DemoRow = [string, string | number];
/** A demo step: its title and what it runs. */
export type DemoStep = [name: string, body: () => Promise<DemoRow[]>];
type AnyClient = Record<string, (request: Record<string, unknown>) => Promise<any>>;

/** The demo's security code: distinctive, so a test can tell a leaked CVV from an amount or an id. */
export const DEMO_SECURITY_CODE = '937';

/** What the steps need: the client, the sandbox behind it, the batch size, and where notifications go (if anywhere). */
export interface DemoContext {
  readonly io: CliIo;
  readonly client: AnyClient;
  readonly sandbox: Sandbox;
  readonly orders: number;
  readonly notifyUrl?: string;
}

function orderNo(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;
}

/** What the steps share: the test card, the notification address, and the card payment once it is made. */
interface DemoShared {
  readonly card: Record<string, string>;
  readonly notify: Record<string, string>;
  readonly cardOrderNo: string;
  paid: Record<string, any>;
}

/** The card payment's identifiers, as the order-changing operations take them. */
function cardIds(shared: DemoShared) {
  return { transaction_id: shared.paid.transaction_id, order_no: shared.cardOrderNo, currency: 'USD', amount: '129.90' };
}

/** The demo's steps: the payments, the changes to the card payment's order, then a payout, a drift report and a batch. */
export function demoSteps(ctx: DemoContext): DemoStep[] {
  const notify: Record<string, string> = ctx.notifyUrl ? { notify_url: ctx.notifyUrl } : {};
  const card = {
    currency: 'USD',
    card: TEST_CARDS.approved,
    expiration_month: '12',
    expiration_year: '2030',
    security_code: DEMO_SECURITY_CODE,
    first_name: 'Ana',
    last_name: 'Lee',
    billing_country: 'PT',
    ...notify,
  };
  const shared: DemoShared = { card, notify, cardOrderNo: orderNo('CARD'), paid: {} };
  return [...paymentSteps(ctx, shared), ...orderChangeSteps(ctx, shared), ...otherSteps(ctx, shared)];
}

/** The payment steps: card with 3-D Secure and a subscription, alternative method, hosted checkout, then a query. */
function paymentSteps(ctx: DemoContext, shared: DemoShared): DemoStep[] {
  const { client } = ctx;
  return [
    [
      'card payment with 3-D Secure and risk results',
      async () => {
        shared.paid = await client.authoriseCard!({
          ...shared.card,
          order_no: shared.cardOrderNo,
          amount: '129.90',
          open3d: 'do3DS',
          subscription: { contract_name: 'Gold plan', contract_amount: '9.90', interval: 'day', interval_count: '30', billing_cycle: 12 },
        });
        return [
          ['order_no', shared.cardOrderNo],
          ['transaction_id', shared.paid.transaction_id],
          ['card (masked)', shared.paid.card],
          ['order_status', shared.paid.order_status],
          ['result_info', shared.paid.result_info],
          ['threeds_result', shared.paid.threeds_result],
          ['risk_action', shared.paid.risk_action],
          ['risk_score', shared.paid.risk_score],
          ['recurring_id', shared.paid.recurring_id],
        ];
      },
    ],
    [
      'alternative payment method (issuer_url)',
      async () => {
        const alt = await client.authoriseAlternative!({
          order_no: orderNo('ALT'),
          currency: 'BRL',
          amount: '80.00',
          payment_method: 'PIX',
          return_url: 'https://shop.example.test/back',
          ...shared.notify,
        });
        return [
          ['order_no', alt.order_no],
          ['issuer_url', alt.issuer_url],
        ];
      },
    ],
    [
      'hosted checkout page, decoded',
      async () => {
        const page = await client.checkout!({
          order_no: orderNo('CHK'),
          currency: 'USD',
          amount: '59.90',
          return_url: 'https://shop.example.test/ok',
          cancel_url: 'https://shop.example.test/cancel',
          ...shared.notify,
        });
        return [
          ['form action', page.action],
          ['method', page.method],
          ['auto-submits', page.autoSubmit ? 'yes' : 'no'],
          ['hidden fields', page.entries.length],
          ['allParams parameters', page.allParams?.entries.length ?? 0],
          ['orderNo / orderAmount', `${page.fields.orderNo} / ${page.fields.orderAmount}`],
        ];
      },
    ],
    [
      'query',
      async () => {
        const answer = await client.query!({ order_no: shared.cardOrderNo });
        const q = answer.orders_list[0];
        return [
          ['return_status', answer.return_status],
          ['transaction_id', q.transaction_id],
          ['payment_status', `${q.payment_status} (sandbox: authorised)`],
          ['transaction_date', q.transaction_date],
          ['is3ds', q.is3ds],
        ];
      },
    ],
  ];
}

/** The steps that change orders: capture, partial refund, review, cancel, subscription cancel. */
function orderChangeSteps(ctx: DemoContext, shared: DemoShared): DemoStep[] {
  const { client, sandbox } = ctx;
  return [
    [
      'capture',
      async () => {
        const answer = await client.capture!({ capture_orders: [cardIds(shared)] });
        return [
          ['return_status', answer.return_status],
          ['capture_status', answer.capture_orders[0].capture_status],
          ['error_message', answer.capture_orders[0].error_message || '(none)'],
        ];
      },
    ],
    [
      'partial refund',
      async () => {
        const answer = await client.refund!({ refund_orders: [{ ...cardIds(shared), refund_amount: '29.90', refund_reason: 'one item returned' }] });
        const r = answer.refund_orders[0];
        return [
          ['refund_status', r.refund_status],
          ['refund_message', r.refund_message],
          ['refund_reference_id', r.refund_reference_id],
          ['refunded / captured', '29.90 / 129.90'],
        ];
      },
    ],
    [
      'review',
      async () => {
        const other = await client.authoriseCard!({ ...shared.card, order_no: orderNo('REV'), amount: '45.00' });
        const answer = await client.review!({
          review_orders: [{ transaction_id: other.transaction_id, order_no: other.order_no, currency: 'USD', amount: '45.00', review_flag: '1' }],
        });
        return [
          ['review_status', answer.review_orders[0].review_status],
          ['review_flag', '1 (approve)'],
        ];
      },
    ],
    [
      'cancel',
      async () => {
        const other = await client.authoriseCard!({ ...shared.card, order_no: orderNo('CAN'), amount: '15.00' });
        const answer = await client.cancel!({
          cancel_orders: [{ transaction_id: other.transaction_id, order_no: other.order_no, currency: 'USD', amount: '15.00' }],
        });
        return [
          ['cancel_status', answer.cancel_orders[0].cancel_status],
          ['error_message', answer.cancel_orders[0].error_message || '(none)'],
        ];
      },
    ],
    [
      'subscription cancel',
      async () => {
        const answer = await client.cancelSubscription!({ recurring_id: shared.paid.recurring_id, contract_name: 'Gold plan' });
        return [
          ['recurring_id', answer.recurring_id],
          ['cancel_status', answer.cancel_status],
          ['subscription now', String(sandbox.state.subscriptions.get(shared.paid.recurring_id)?.status)],
        ];
      },
    ],
  ];
}

/** A payout, a drift report through gw proxy, and a batch capture. */
function otherSteps(ctx: DemoContext, shared: DemoShared): DemoStep[] {
  const { client, sandbox } = ctx;
  return [
    [
      'payout',
      async () => {
        const answer = await client.payout!({
          request_id: randomUUID(),
          payment_amount: '250.00',
          payment_currency: 'USD',
          source_amount: '250.00',
          source_currency: 'USD',
          payment_method: 'SWIFT',
          fee_paid_by: 'PAYER',
          beneficiary: { first_name: 'Rui', last_name: 'Costa', entity_type: 'COMPANY', bank_details: { account_number: '12345678', swift_code: 'BANKPTPL' } },
          ...shared.notify,
        });
        return [
          ['status', answer.status],
          ['transaction_id', answer.transaction_id],
          ['short_reference_id', answer.short_reference_id],
          ['amount_beneficiary_receives', answer.amount_beneficiary_receives],
          ['local_clearing_system', answer.beneficiary?.bank_details?.local_clearing_system],
        ];
      },
    ],
    ['drift report: gw proxy in front of a sandbox told to drift', () => driftStep(sandbox, DEMO_SECURITY_CODE, orderNo('DRIFT'))],
    [`batch capture of ${ctx.orders} orders`, () => batchStep(ctx, shared.card)],
  ];
}

async function batchStep(ctx: DemoContext, card: Record<string, string>): Promise<DemoRow[]> {
  const { client, io, orders: count } = ctx;
  const started = performance.now();
  const orders: Record<string, string>[] = [];
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, async (_, k) => {
        const order_no = orderNo(`B${i + k}`);
        const r = await client.authoriseCard!({ ...card, order_no, amount: '10.00' });
        orders[i + k] = { transaction_id: r.transaction_id, order_no, currency: 'USD', amount: '10.00' };
      }),
    );
  }
  const authorisedMs = Math.round(performance.now() - started);
  const progress = progressReporterFor(io);
  const result = await runBatch({
    client: client as unknown as BatchClient,
    operation: 'capture',
    orders,
    concurrency: 4,
    reconcile: sandboxReconciler,
    onProgress: (p) => progress.update(p),
  });
  progress.stop();
  say(io, summaryTable(io, result));
  return [
    ['orders', count],
    ['requests (50 orders each)', Math.ceil(count / 50)],
    ['succeeded', result.counts.succeeded],
    ['failed / rejected / unknown', `${result.counts.failed} / ${result.counts.rejected} / ${result.counts.unknown}`],
    ['ms authorising the orders first', authorisedMs],
    ['ms of the batch capture', result.durationMs],
  ];
}
