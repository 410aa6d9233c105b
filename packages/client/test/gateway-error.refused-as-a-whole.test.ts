import { startSandbox, type Sandbox } from '@gw/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError, GwError, splitCodeMessage, type GwClient } from '../src/index.ts';
import { authorisedOrder, cardPayment, sandboxClient } from './support.ts';

let sandbox: Sandbox;
let client: GwClient;
let stranger: GwClient;
beforeAll(async () => {
  sandbox = await startSandbox();
  client = sandboxClient(sandbox);
  stranger = sandboxClient(sandbox, { merchantId: 'M999999' });
});
afterAll(async () => {
  await Promise.all([client.close(), stranger.close()]);
  await sandbox.stop();
});

describe('GatewayError (UNKNOWNS U47)', () => {
  it('a batch answered with return_status 0 throws, carrying the decoded response and the split message', async () => {
    const order = await authorisedOrder(client);
    const error = await stranger.capture({ capture_orders: [order] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toBeInstanceOf(GwError);
    const gateway = error as GatewayError;
    expect(gateway.code).toBe('GW_GATEWAY');
    expect(gateway.details).toMatchObject({
      operation: 'capture',
      return_status: '0',
      return_message: 'E001:unknown merchant_id or account_id',
      returnCode: 'E001',
      returnText: 'unknown merchant_id or account_id',
    });
    expect(gateway.response).toMatchObject({ merchant_id: 'M999999', return_status: '0' });
    expect(gateway.message).toContain('E001:unknown merchant_id or account_id');
    expect(sandbox.state.orders.get(order.transaction_id)?.state).toBe('authorised');
  });

  it('a query answered with return_status 0 throws too', async () => {
    const error = await stranger.query({ order_no: ['X'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).details.operation).toBe('query');
  });

  it('responses without return_status are returned with their status verbatim, never thrown', async () => {
    const respon = await stranger.authoriseCard(cardPayment());
    expect(respon).toMatchObject({ order_status: '0', result_info: 'E001:unknown merchant_id or account_id' });
    expect(splitCodeMessage(respon.result_info)).toEqual({ code: 'E001', message: 'unknown merchant_id or account_id', success: false });
    const cancelled = await stranger.cancelSubscription({ recurring_id: 'R1', contract_name: 'Gold' });
    expect(cancelled).toMatchObject({ cancel_status: '0' });
  });
});

describe('splitCodeMessage (UNKNOWNS U48)', () => {
  it('splits at the first colon; a code of zeros only is success', () => {
    expect(splitCodeMessage('0000:Success')).toEqual({ code: '0000', message: 'Success', success: true });
    expect(splitCodeMessage('0:ok: really')).toEqual({ code: '0', message: 'ok: really', success: true });
    expect(splitCodeMessage('2001:Card declined')).toEqual({ code: '2001', message: 'Card declined', success: false });
    expect(splitCodeMessage('no code here')).toEqual({ code: null, message: 'no code here', success: false });
    expect(splitCodeMessage(':empty code')).toEqual({ code: '', message: 'empty code', success: false });
    expect(splitCodeMessage(undefined)).toEqual({ code: null, message: '', success: false });
  });
});
