// The spec change a team makes: a new operation (`balance`, /v1/balance), a new optional field on a request record
// and one on a result record.

/** The `x-gw-` extensions of a signed JSON operation (answers signed, no IP allow-list) with one variant. */
export function signedJsonOperation(retryClass: string, variant: { name: string; request: string; response: string }): Record<string, unknown> {
  return {
    'x-gw-request-encoding': 'json',
    'x-gw-request-encoding-declared': true,
    'x-gw-response-encoding': 'json',
    'x-gw-signed': true,
    'x-gw-response-signature': 'required',
    'x-gw-ip-allow-listed': false,
    'x-gw-retry-class': retryClass,
    'x-gw-variants': [variant],
  };
}

/** Adds the new operation and both fields. */
export function addBalanceOperationAndField(doc: any): void {
  addCaptureFields(doc);
  addBalanceOperation(doc);
}

/** Adds `merchant_reference` to CaptureOrder and `settlement_date` (a format, no example) to CaptureOrderResult. */
export function addCaptureFields(doc: any): void {
  const schemas = doc.components.schemas;
  schemas.CaptureOrder.properties.merchant_reference = {
    type: 'string',
    maxLength: 32,
    description: "The merchant's own reference of the order.",
    examples: ['MR-1'],
  };
  schemas.CaptureOrderResult.properties.settlement_date = { type: 'string', format: 'date', description: 'The day the capture settles.' };
}

/** Adds `/v1/balance` with its request and response records and a response example on the operation. */
export function addBalanceOperation(doc: any): void {
  const schemas = doc.components.schemas;
  schemas.BalanceRequest = {
    type: 'object',
    description: 'Asks for the available balance of the account in one currency.',
    properties: {
      merchant_id: { type: 'string' },
      account_id: { type: 'string' },
      encryption_data: { type: 'string' },
      currency: { $ref: '#/components/schemas/CurrencyCode' },
    },
    additionalProperties: false,
  };
  schemas.BalanceResponse = {
    type: 'object',
    description: 'The available balance.',
    properties: {
      merchant_id: { type: 'string' },
      account_id: { type: 'string' },
      return_status: { type: 'string', examples: ['1'] },
      currency: { $ref: '#/components/schemas/CurrencyCode' },
      available_amount: { type: 'string', pattern: '^\\d+\\.\\d{2}$', examples: ['1234.50'] },
      reserved_amount: { $ref: '#/components/schemas/Amount2dp' },
      encryption_data: { type: 'string' },
    },
  };
  doc.paths['/v1/balance'] = {
    post: {
      operationId: 'balance',
      summary: 'Read the available balance',
      tags: ['Orders'],
      security: [],
      ...signedJsonOperation('safe', { name: 'balance', request: 'BalanceRequest', response: 'BalanceResponse' }),
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/BalanceRequest' } } } },
      responses: {
        '200': {
          description: 'The balance.',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/BalanceResponse' },
              example: { return_status: '1', currency: 'USD', available_amount: '1234.50', reserved_amount: '250.00' },
            },
          },
        },
      },
    },
  };
}

/** A program that uses the new method and field through the packages' public APIs; it type-checks only after generating. */
export const USES_NEW_OPERATION = `import { createClient, type GwClient } from '@gw/client';
import { startSandbox, SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox';
import { createHmacSha256Signer } from '@gw/signer-interface';
import type { BalanceResponse, CaptureOrder } from '@gw/types';

const order: CaptureOrder = { order_no: 'A-1', transaction_id: 'T-1', currency: 'USD', amount: '1.00', merchant_reference: 'MR-7' };
const sandbox = await startSandbox();
const client: GwClient = createClient({ baseUrl: sandbox.url, ...SANDBOX_DEFAULT_MERCHANT, signer: createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET }) });
try {
  const answer: BalanceResponse = await client.balance({ currency: 'USD' });
  // @ts-expect-error the new method's input is typed: no such member
  void (() => client.balance({ currency: 'USD', no_such_member: 1 }));
  const amount: string | undefined = answer.available_amount;
  const paid = await client.authoriseCard({ order_no: 'B-1', currency: 'USD', amount: '5.00', card: '4111111111111111', security_code: '737', expiration_month: '12', expiration_year: '2031' });
  const captured = await client.capture({ capture_orders: [{ transaction_id: paid.transaction_id!, order_no: 'B-1', currency: 'USD', amount: '5.00' }] });
  const settlement: string | undefined = captured.capture_orders?.[0]?.settlement_date;
  console.log(JSON.stringify({ amount, reserved: answer.reserved_amount, currency: answer.currency, reference: order.merchant_reference, settlement }));
} finally {
  await client.close();
  await sandbox.stop();
}
`;
