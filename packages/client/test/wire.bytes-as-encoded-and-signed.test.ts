import { createSignableMessage } from '@gw/signer-interface';
import { operations, type OperationName } from '@gw/types';
import { encodeRequestBody } from '@gw/xml-codec';
import { describe, expect, it } from 'vitest';
import { reply, sandboxClient, sandboxSigner, startRecordingServer } from './support.ts';

async function verifies(operation: OperationName, record: Record<string, unknown>, signature: string): Promise<boolean> {
  return sandboxSigner.verify(createSignableMessage({ operation, record, body: () => encodeRequestBody(operation, record) }), signature);
}

describe('on the wire: the body encodeRequestBody makes, signed over the record without encryption_data', () => {
  it.each([
    ['capture', { capture_orders: [{ transaction_id: 'T1', order_no: 'Ö-1 & "x"', currency: 'USD', amount: '1.00' }] }, 'application/json'],
    ['query', { order_no: 'O1,O2', transaction_id: 'T9' }, 'application/x-www-form-urlencoded'],
    ['cancelSubscription', { recurring_id: 'R1', contract_name: 'Gold <&> plan' }, 'application/xml'],
    ['checkout', { order_no: 'C1', amount: '1.00', cart_items: [{ basic_item_data: { name: '☕', price: { amount_usd: 1.5 } } }] }, 'application/json'],
  ] as const)('%s', async (operation, input, contentType) => {
    await using server = await startRecordingServer((_request, res) => reply(res, 200, '{"return_status":"1"}'));
    await using client = sandboxClient(server, { verifyResponses: false });
    await (client[operation] as (r: object) => Promise<unknown>)(input).catch(() => undefined);
    const [request] = server.received;
    expect(request!.path).toBe(operations[operation].path);
    expect(request!.headers['content-type']).toBe(contentType);
    expect(request!.headers.authorization).toBeUndefined();
    const record = { merchant_id: 'M100200', account_id: 'A300400', ...(input as Record<string, unknown>) };
    const signatureText = /[0-9a-f]{64}/.exec(request!.body)![0];
    // Byte for byte what the sandbox re-creates, and the signature checks out over the record without it.
    expect(request!.body).toBe(encodeRequestBody(operation, { ...record, encryption_data: signatureText }));
    expect(await verifies(operation, record, signatureText)).toBe(true);
  });
});
