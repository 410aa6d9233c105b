import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment, encodeBody, merchant, post, send, signed } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('requests the sandbox refuses', () => {
  it('answers a request breaking the spec formats with HTTP 400 naming every problem at once', async () => {
    const reply = await send(sandbox, 'capture', { capture_orders: [{ transaction_id: 'T1', currency: 'usd', amount: '12,34' }, { amount: 7 }] });
    expect(reply.status).toBe(400);
    expect(reply.json.return_status).toBe('0');
    expect(reply.json.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'capture_orders[0].amount',
      'capture_orders[0].currency',
      'capture_orders[1].amount',
    ]);
  });

  it('refuses a bad signature and an unknown merchant as a whole, with return_status 0', async () => {
    const body = await signed('capture', { capture_orders: [{ transaction_id: 'T1' }] });
    const tampered = await post(sandbox, '/v1/capture', JSON.stringify({ ...body, account_id: 'A999' }));
    expect(tampered.json).toMatchObject({ return_status: '0', return_message: 'E001:unknown merchant_id or account_id' });
    const badSignature = await post(sandbox, '/v1/capture', JSON.stringify({ ...body, encryption_data: 'f'.repeat(64) }));
    expect(badSignature.json).toMatchObject({ return_status: '0', return_message: 'E003:encryption_data does not verify' });
    const unsigned = await send(sandbox, 'capture', { capture_orders: [{ transaction_id: 'T1' }] }, { sign: false });
    expect(unsigned.json.return_message).toBe('E003:encryption_data does not verify');
  });

  it('refuses a card payment with a bad signature in the respon shape: order_status 0 and result_info', async () => {
    const body = await signed('authoriseCard', cardPayment());
    const reply = await post(sandbox, '/v1/authorise', JSON.stringify({ ...body, amount: '1.00' }));
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('<order_status>0</order_status>');
    expect(reply.text).toContain('<result_info>E003:encryption_data does not verify</result_info>');
  });

  it('accepts a JSON body sent with the form Content-Type, as the seed sample commands do', async () => {
    const body = await signed('capture', { capture_orders: [{ transaction_id: 'T-NONE' }] });
    const reply = await post(sandbox, '/v1/capture', encodeBody('capture', body), 'application/x-www-form-urlencoded');
    expect(reply.json).toMatchObject({ return_status: '1', capture_orders: [{ transaction_id: 'T-NONE', capture_status: '0' }] });
  });

  it('answers malformed bodies, unknown paths and wrong methods with structured errors', async () => {
    expect((await post(sandbox, '/v1/capture', '{"merchant_id":')).json).toMatchObject({ return_status: '0', return_message: 'the body is not valid JSON' });
    expect((await post(sandbox, '/v1/capture', '[1,2]')).status).toBe(400);
    expect((await post(sandbox, '/v1/cancelsubscription', '<request><recurring_id>R1</request>', 'application/xml')).status).toBe(400);
    expect((await post(sandbox, '/v1/nothing', '{}')).status).toBe(404);
    const get = await fetch(`${sandbox.url}/v1/capture`);
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ return_status: '0' });
  });

  it('refuses a body over the size limit', async () => {
    await using small = await startSandbox({ maxBodyBytes: 1000 });
    const reply = await post(small, '/v1/capture', JSON.stringify({ ...merchant, note: 'x'.repeat(2000) }));
    expect(reply.status).toBe(400);
    expect(reply.json.return_message).toContain('larger than 1000 bytes');
  });
});
