// Test helpers: a real sandbox on 127.0.0.1, the real client, and authorised orders to act on.
import { readFileSync } from 'node:fs';
import { createClient, type GuardedCall } from '@gw/client';
import { authoriseOrders, type AuthorisingClient } from '@gw/test-support';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, type Sandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { runBatch, type BatchClient } from '../src/index.ts';

export const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });

/** The real client, pointed at the sandbox. */
export function clientFor(sandbox: Sandbox, overrides: Record<string, unknown> = {}): BatchClient {
  return createClient({
    baseUrl: sandbox.url,
    merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
    accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
    signer,
    verifier: signer,
    timeoutMs: 5_000,
    ...overrides,
  }) as unknown as BatchClient;
}

/**
 * The client with its capture answers rewritten by `rewrite` (a gateway that reorders, drops or garbles elements): a
 * wrapper as a team would write one, handing each call its options (time limit, the check before the write) and the
 * answer back through the call's guard.
 */
export function answersRewritten(real: BatchClient, rewrite: (response: Record<string, unknown>) => Record<string, unknown>): BatchClient {
  const capture = async (request: Parameters<BatchClient['capture']>[0], call: GuardedCall) => {
    const response = await real.capture(request, { timeoutMs: call.timeoutMs, beforeSend: call.beforeSend });
    return call.answered(rewrite(response as unknown as Record<string, unknown>));
  };
  return { ...real, capture: capture as BatchClient['capture'] };
}

/** A capture-ready order record (a type alias, so it is a `Record<string, string>` as batch inputs are). */
type Order = { transaction_id: string; order_no: string; currency: string; amount: string };

/** Authorises `count` card payments in the sandbox through the client and returns capture-ready order records. */
export function authorisedOrders(sandbox: Sandbox, count: number, amount = '25.00'): Promise<Order[]> {
  return authoriseOrders(clientFor(sandbox) as unknown as AuthorisingClient, count, { prefix: 'B', amount });
}

/** Asserts the invariant of the batch: every input index exactly once. */
export function indexesOf(outcomes: readonly { index: number }[]): number[] {
  return outcomes.map((o) => o.index).sort((a, b) => a - b);
}

/** `count` authorised orders, captured through a batch, as refund orders (a partial refund each). */
export async function capturedRefundOrders(sandbox: Sandbox, count: number, amount = '20.00') {
  const orders = await authorisedOrders(sandbox, count, amount);
  const capture = await runBatch({ client: clientFor(sandbox), operation: 'capture', orders });
  if (capture.counts.succeeded !== count) throw new Error(`captured ${capture.counts.succeeded} of ${count}`);
  return orders.map((o) => ({ ...o, refund_amount: '5.00', refund_reason: 'lock test' }));
}

/** How many refunds the sandbox holds for each order, in input order. */
export function refundsPerOrder(sandbox: Sandbox, orders: readonly { transaction_id: string }[]): number[] {
  return orders.map((o) => sandbox.state.orders.get(o.transaction_id)!.refunds.length);
}

/**
 * A journal's complete entries, as resume reads them: a SIGKILL can tear the last line mid-write (the kernel stops a
 * write of several pages between pages), and an unterminated line never counted.
 */
export function journalEntries<T = { type: string; chunk?: number }>(journal: string): T[] {
  const text = readFileSync(journal, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}
