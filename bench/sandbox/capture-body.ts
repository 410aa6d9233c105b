// The request bench/sandbox measures: POST /v1/capture of one order the sandbox does not hold, signed.
import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';

/** The signed JSON body of the bench's capture. */
export async function captureBody(): Promise<string> {
  const record = {
    merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId,
    account_id: SANDBOX_DEFAULT_MERCHANT.accountId,
    capture_orders: [{ transaction_id: 'T2026112200000001', order_no: 'BENCH-1', currency: 'USD', amount: '10.00' }],
  };
  const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
  const encryption_data = await signer.sign(createSignableMessage({ operation: 'capture', record, body: JSON.stringify(record) }));
  return JSON.stringify({ ...record, encryption_data });
}
