import { createClient, type AnswerDriftEvent } from '@gw/client';
import { startProxy } from '@gw/proxy';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, TEST_CARDS, type Sandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { control } from '../commands/sandbox-control.ts';
import { driftRows } from '../spec/drift-summary.ts';
import type { DemoRow } from './demo-steps.ts';

/** The drift the demo's sandbox is told to answer with: a capture answer carrying a field the spec does not list. */
const DEMO_DRIFT = { capture: { add: { settlement_window: 'T+1' } } };

/**
 * `gw proxy` in front of the demo's sandbox, the sandbox switched to answer with drift through its control API, a
 * payment, its capture and a query through the proxy; the rows are the drift report's summary (`gw spec drift`).
 */
export async function driftStep(sandbox: Sandbox, securityCode: string, orderNo: string): Promise<DemoRow[]> {
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  const proxy = await startProxy({ upstream: sandbox.url, verifier: signer });
  await control(sandbox.url, '/sandbox/api/drift', 'PUT', DEMO_DRIFT);
  // The client sees the same drift by the same rule (UNKNOWNS U57): under answers 'report' it accepts and reports it.
  const seen: AnswerDriftEvent[] = [];
  try {
    const client = createClient({
      baseUrl: proxy.url,
      ...SANDBOX_DEFAULT_MERCHANT,
      signer,
      verifier: signer,
      hooks: { onAnswerDrift: (event) => seen.push(event) },
    });
    const paid = await client.authoriseCard({
      order_no: orderNo,
      currency: 'USD',
      amount: '20.00',
      card: TEST_CARDS.approved,
      expiration_month: '12',
      expiration_year: '2030',
      security_code: securityCode,
    });
    await client.capture({ capture_orders: [{ transaction_id: paid.transaction_id!, order_no: orderNo, currency: 'USD', amount: '20.00' }] });
    await client.query({ transaction_id: [paid.transaction_id!] });
  } finally {
    await control(sandbox.url, '/sandbox/api/drift', 'PUT', {});
    await proxy.stop();
  }
  const reported = seen.flatMap((event) => event.problems.map((p) => `${event.operation} ${p.field || '(the answer)'}`));
  const client =
    reported.length > 0 ? `accepted and reported through onAnswerDrift (answers: 'report'): ${reported.join(', ')}` : 'no answer differed from the spec';
  return [
    ['drift switched on', 'PUT /sandbox/api/drift: capture answers add settlement_window'],
    ...driftRows(proxy.report),
    ['the client', client],
    ['yourself', 'gw proxy --upstream URL --report drift.json, then gw spec drift drift.json'],
  ];
}
