import { describe, expect, it } from 'vitest';
import { DecodeError } from '../src/index.ts';
import { cardPayment, reply, sandboxClient, startRecordingServer } from './support.ts';

const capture = { capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] };

describe('DecodeError', () => {
  it('a respon that is not the XML it should be; a money-moving outcome is marked unknown', async () => {
    await using server = await startRecordingServer((_request, res) =>
      reply(res, 200, '<respon><order_no>O1</order_no><risk_score>high</risk_score></respon>', 'application/xml'),
    );
    await using client = sandboxClient(server);
    const payment = cardPayment();
    const error = await client.authoriseCard(payment).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecodeError);
    const decode = error as DecodeError;
    expect(decode.code).toBe('GW_DECODE');
    expect(decode.details).toMatchObject({
      format: 'xml',
      failure: 'type',
      path: 'respon.risk_score',
      operation: 'authoriseCard',
      outcome: 'unknown',
      identifiers: { order_no: [payment.order_no] },
    });
    expect(decode.message).toContain(`order_no ${payment.order_no}`);
  });

  it('garbage instead of XML', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 200, 'Internal <b>oops', 'text/html'));
    await using client = sandboxClient(server);
    const error = await client.authoriseCard(cardPayment()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).details.format).toBe('xml');
  });

  it('JSON that is not JSON, or not an object', async () => {
    let body = '{"return_status": "1", oops';
    await using server = await startRecordingServer((_request, res) => reply(res, 200, body));
    await using client = sandboxClient(server);
    const broken = await client.capture(capture).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(DecodeError);
    expect((broken as DecodeError).details).toMatchObject({ format: 'json', failure: 'malformed', operation: 'capture', outcome: 'unknown' });
    expect((broken as DecodeError).cause).toBeInstanceOf(DecodeError);
    body = '[1, 2]';
    const array = await client.query({ order_no: ['O1'] }).catch((e: unknown) => e);
    expect((array as DecodeError).details).toMatchObject({ format: 'json', failure: 'type', operation: 'query', outcome: null });
  });

  it('a page with no form', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 200, '<html><body>Maintenance</body></html>', 'text/html'));
    await using client = sandboxClient(server);
    const error = await client.checkout({ order_no: 'C1', amount: '1.00' }).catch((e: unknown) => e);
    expect((error as DecodeError).details).toMatchObject({ format: 'html', failure: 'no-form' });
  });

  it('a body over maxInputBytes is not read to the end (UNKNOWNS U51)', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 200, JSON.stringify({ return_status: '1', pad: 'x'.repeat(200_000) })));
    await using client = sandboxClient(server, { maxInputBytes: 10_000 });
    const error = await client.query({ order_no: ['O1'] }).catch((e: unknown) => e);
    expect((error as DecodeError).details).toMatchObject({ format: 'json', failure: 'too-large' });
  });
});
