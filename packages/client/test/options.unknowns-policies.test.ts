import { createHash } from 'node:crypto';
import { startSandbox, type Sandbox } from '@gw/sandbox';
import type { SignableMessage } from '@gw/signer-interface';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactNumber } from '../src/index.ts';
import { cardPayment, orderNo, reply, sandboxClient, startRecordingServer } from './support.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const capture = { capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] };

describe('the options for what the interface leaves open', () => {
  it('jsonContentType (U32) and headers (U33) go on every request', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 200, '{"return_status":"1"}'));
    await using client = sandboxClient(server, {
      verifyResponses: false,
      jsonContentType: 'application/x-www-form-urlencoded',
      headers: { 'x-proxy-route': 'gw' },
    });
    await client.capture(capture);
    await client.query({ order_no: ['O1'] });
    expect(server.received.map((r) => [r.headers['content-type'], r.headers['x-proxy-route']])).toEqual([
      ['application/x-www-form-urlencoded', 'gw'],
      ['application/x-www-form-urlencoded', 'gw'],
    ]);
    expect(JSON.parse(server.received[0]!.body)).toMatchObject(capture); // still a JSON body
    // The sandbox decodes by declared encoding, so it accepts JSON under the form type.
    await using real = sandboxClient(sandbox, { jsonContentType: 'application/x-www-form-urlencoded' });
    await expect(real.capture(capture)).resolves.toMatchObject({ return_status: '1' });
  });

  it('encodingOverrides (U31) sends authorise and checkout as a form, signed over that form, and the sandbox reads it', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 200, '<respon></respon>', 'application/xml'));
    // `billing` is no field of the spec: sent as given (unknownFields: 'send') to show a nested member in a form.
    await using client = sandboxClient(server, {
      verifyResponses: false,
      unknownFields: 'send',
      encodingOverrides: { authoriseCard: 'form', checkout: 'json' },
    });
    const payment = cardPayment({ billing: { billing_city: 'Köln & Bonn' } });
    await client.authoriseCard(payment).catch(() => undefined);
    const [request] = server.received;
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = Object.fromEntries(new URLSearchParams(request!.body));
    expect(form).toMatchObject({ merchant_id: 'M100200', order_no: payment.order_no, billing: '{"billing_city":"Köln & Bonn"}' });
    expect(form.encryption_data).toMatch(/^[0-9a-f]{64}$/);

    // End to end with a signer over the body bytes: client and sandbox must agree on the form body to the byte.
    const bodySigner = {
      sign: (message: SignableMessage) => createHash('sha256').update('body-secret').update(message.body).digest('hex'),
      verify: (message: SignableMessage, signature: string) => bodySigner.sign(message) === signature,
    };
    await using bodySigned = await startSandbox({ signer: bodySigner, verifier: bodySigner });
    await using real = sandboxClient(bodySigned, { signer: bodySigner, verifier: bodySigner, encodingOverrides: { authoriseCard: 'form' } });
    await expect(real.authoriseCard(cardPayment())).resolves.toMatchObject({ order_status: '1' });
    await using asJson = sandboxClient(bodySigned, { signer: bodySigner, verifier: bodySigner });
    await expect(asJson.authoriseCard(cardPayment())).resolves.toMatchObject({ order_status: '1' });
  });

  it('encodingOverrides names every problem at once: declared body types and unknown encodings are refused', () => {
    expect(() => sandboxClient(sandbox, { encodingOverrides: { capture: 'form', authoriseCard: 'xml', nope: 'json' } as never })).toThrow(
      expect.objectContaining({
        code: 'GW_CONFIG',
        message: expect.stringMatching(
          /3 problem\(s\): capture: the seed declares its body type.*authoriseCard: "xml" is not "json" or "form".*nope: is not an operation/,
        ),
      }),
    );
  });

  it('xmlRequestRoot (U35) names the root of the cancelSubscription body', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 200, '{}'));
    await using client = sandboxClient(server, { verifyResponses: false, xmlRequestRoot: 'cancel' });
    await client.cancelSubscription({ recurring_id: 'R1', contract_name: 'Gold' });
    expect(server.received[0]!.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<cancel><merchant_id>M100200<\/merchant_id>/);
    await using real = sandboxClient(sandbox, { xmlRequestRoot: 'cancel' });
    await expect(real.cancelSubscription({ recurring_id: 'R1', contract_name: 'Gold' })).resolves.toMatchObject({ cancel_status: '0' });
  });

  it('querySelection (U36) builds the form fields from the lists', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 200, '{"return_status":"1","orders_list":[]}'));
    await using client = sandboxClient(server, { querySelection: (selection) => ({ orders: [...selection.order_no, ...selection.transaction_id].join('|') }) });
    await client.query({ order_no: ['A', 'B'], transaction_id: 'T1' });
    const form = new URLSearchParams(server.received[0]!.body);
    expect(form.get('orders')).toBe('A|B|T1');
    expect(form.has('order_no')).toBe(false);
  });

  it('fieldNameOverrides (U09) renames on the wire and back', async () => {
    // `website` is no field of the spec: the sandbox accepts it only when told to.
    await using accepting = await startSandbox({ unknownFields: 'accept' });
    await using client = sandboxClient(accepting, { fieldNameOverrides: { 'the service': 'website' } });
    const order = orderNo('WEB');
    const page = await client.checkout({ order_no: order, amount: '5.00', currency: 'USD', 'the service': 'shop.example.test' });
    const stored = [...accepting.state.orders.values()].find((o) => o.orderNo === order)!;
    expect(stored.record).toMatchObject({ website: 'shop.example.test' });
    expect(stored.record).not.toHaveProperty('the service');
    expect(page.fields['the service']).toBe('shop.example.test'); // the wire name's value wins over the sandbox's own routing field
    expect(page.fields).not.toHaveProperty('website');
    expect(page.entries.filter(([name]) => name === 'website')).toEqual([]);

    await using server = await startRecordingServer((_request, res) =>
      reply(res, 200, '{"return_status":"1","orders_list":[{"order_no":"O1","website":"shop"}]}'),
    );
    await using renamed = sandboxClient(server, { fieldNameOverrides: { 'the service': 'website' } });
    expect((await renamed.query({ order_no: ['O1'] })).orders_list).toEqual([{ order_no: 'O1', 'the service': 'shop' }]);
  });

  it('exactNumbers (U15): the wire text of every JSON number, on by default', async () => {
    const body =
      '{"request_id":"r","amount_payer_pays":10.10,"fee_amount":12345678901234567.89,"amount_beneficiary_receives":1e2,"beneficiary":{"x":{"n":0.30}},"list":[1.50]}';
    await using server = await startRecordingServer((_request, res) => reply(res, 200, body));
    await using client = sandboxClient(server, { verifyResponses: false, fieldNameOverrides: { fee_currency: 'feeCurrency' } });
    const payout = await client.payout({ request_id: '7d3f8b1e-2c4a-4b7e-9f1a-0c2d3e4f5a6b' });
    expect(payout.amount_payer_pays).toBe(10.1);
    expect(exactNumber(payout, 'amount_payer_pays')).toBe('10.10');
    expect(exactNumber(payout, 'fee_amount')).toBe('12345678901234567.89'); // the number itself lost digits
    expect(exactNumber(payout, 'amount_beneficiary_receives')).toBe('1e2');
    expect(exactNumber((payout as unknown as { beneficiary: { x: object } }).beneficiary.x, 'n')).toBe('0.30');
    expect(exactNumber((payout as unknown as { list: object }).list, 0)).toBe('1.50');
    await using plain = sandboxClient(server, { verifyResponses: false, exactNumbers: false });
    const again = await plain.payout({ request_id: '7d3f8b1e-2c4a-4b7e-9f1a-0c2d3e4f5a6b' });
    expect(again.amount_payer_pays).toBe(10.1);
    expect(exactNumber(again, 'amount_payer_pays')).toBeUndefined();
  });
});
