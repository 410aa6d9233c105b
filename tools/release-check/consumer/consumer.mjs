// A team's script, outside the workspace: the installed packages, a sandbox, one payment, a capture and a batch.
import { runBatch } from '@gw/batch';
import { createClient, OutcomeUnknownError } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, sandboxReconciler, startSandbox } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { operations } from '@gw/types';
import { decodeRespon } from '@gw/xml-codec';

const sandbox = await startSandbox();
const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
const client = createClient({ baseUrl: sandbox.url, merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, signer, verifier: signer });
const paid = await client.authoriseCard({ order_no: 'CONSUMER-1', currency: 'USD', amount: '10.00', card: '4111111111111111', expiration_month: '12', expiration_year: '2030', security_code: '123' });
const captured = await client.capture({ capture_orders: [{ transaction_id: paid.transaction_id, order_no: 'CONSUMER-1', currency: 'USD', amount: '10.00' }] });
const more = [];
for (let i = 0; i < 60; i++) {
  const r = await client.authoriseCard({ order_no: `CONSUMER-B${i}`, currency: 'USD', amount: '1.00', card: '4111111111111111' });
  more.push({ transaction_id: r.transaction_id, order_no: `CONSUMER-B${i}`, currency: 'USD', amount: '1.00' });
}
const batch = await runBatch({ client, operation: 'capture', orders: more, reconcile: sandboxReconciler });
await sandbox.stop();
console.log(JSON.stringify({
  node: process.version,
  order_status: paid.order_status,
  capture_status: captured.capture_orders[0].capture_status,
  // A capture result field the spec may add (the release test adds it in 1.1.0): what the sandbox answers for it.
  settlement_date: captured.capture_orders[0].settlement_date ?? null,
  batch: batch.counts,
  limit: operations.capture.batch.limit,
  decoded: decodeRespon('<respon><order_status>1</order_status><issuer_url>https://x.test</issuer_url></respon>').variant,
  errorClass: typeof OutcomeUnknownError,
}));
