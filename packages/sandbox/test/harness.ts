// Test helpers: signed requests sent over real HTTP (fetch) to a real sandbox; no client package involved.
import { createHmacSha256Signer, createSignableMessage } from '@gw/signer-interface';
import { operations, type OperationName } from '@gw/types';
import { orderNo } from '@gw/test-support';
import { decodeCardRespon, encodeRequestBody } from '@gw/xml-codec';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, type Sandbox } from '../src/index.ts';

export const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
export const merchant = { merchant_id: SANDBOX_DEFAULT_MERCHANT.merchantId, account_id: SANDBOX_DEFAULT_MERCHANT.accountId };

/** The body of a record without encryption_data, as the operation encodes it. */
export function encodeBody(operation: OperationName, record: Record<string, unknown>): string {
  return encodeRequestBody(operation, record);
}

/** The record with merchant ids filled in and `encryption_data` computed by the sandbox's reference signer. */
export async function signed(operation: OperationName, record: Record<string, unknown>): Promise<Record<string, unknown>> {
  const full = { ...merchant, ...record };
  const message = createSignableMessage({ operation, record: full, body: encodeBody(operation, full) });
  return { ...full, encryption_data: signer.sign(message) };
}

/** What came back over HTTP. */
export interface Reply {
  status: number;
  contentType: string;
  text: string;
  json: any;
}

/** Signs, encodes and POSTs a record to the operation's path. */
export async function send(
  sandbox: Sandbox,
  operation: OperationName,
  record: Record<string, unknown>,
  init: { sign?: boolean; contentType?: string } = {},
): Promise<Reply> {
  const op = operations[operation];
  const body = init.sign === false ? { ...merchant, ...record } : await signed(operation, record);
  const contentType = init.contentType ?? op.requestMediaType;
  return post(sandbox, op.path, encodeBody(operation, body), contentType);
}

/** The JSON value of an answer's text, or undefined when it is not JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** POSTs raw text. */
export async function post(sandbox: Sandbox, path: string, body: string | Uint8Array, contentType = 'application/json'): Promise<Reply> {
  const response = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, json: jsonOf(text) };
}

export { orderNo } from '@gw/test-support';

/** A card payment record. */
export function cardPayment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order_no: orderNo(),
    currency: 'USD',
    amount: '100.00',
    card: '4111111111111111',
    expiration_month: '12',
    expiration_year: '2030',
    security_code: '123',
    notify_url: '',
    ...overrides,
  };
}

/** A card payment of `amount` USD authorised through the sandbox, as the batch element that captures it whole. */
export async function authorisedOrder(
  sandbox: Sandbox,
  amount = '40.00',
): Promise<{ transaction_id: string; order_no: string; currency: string; amount: string }> {
  const payment = cardPayment({ amount });
  const respon = decodeCardRespon((await send(sandbox, 'authoriseCard', payment)).text);
  return { transaction_id: respon.transaction_id!, order_no: String(payment.order_no), currency: 'USD', amount };
}
