import { describe, expect, it } from 'vitest';
import { DecodeError } from '../src/index.ts';
import { reply, sandboxClient, startRecordingServer } from './support.ts';

const capture = { capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] };
const element = '{"transaction_id":"T1","order_no":"O1","currency":"USD","amount":"1.00","capture_status":"1","error_message":""}';

/** A capture answer whose `capture_orders` nests `depth` levels: arrays in arrays, then one element. */
function nestedAnswer(depth: number, text = ''): string {
  return `{"merchant_id":"M","account_id":"A","return_status":"1","return_message":"${text}","capture_orders":${'['.repeat(depth - 1)}${element}${']'.repeat(depth - 1)}}`;
}

describe('a JSON answer nesting deeper than 64 levels', () => {
  it('is refused as too deep (outcome unknown, the request reached the gateway); 64 levels, or many brackets inside strings, are read', async () => {
    let body = '';
    await using server = await startRecordingServer((_request, res) => reply(res, 200, body));
    await using client = sandboxClient(server, { verifyResponses: false });
    // 65 levels: the record's own brace, 63 arrays and the element's brace.
    body = nestedAnswer(64);
    const deep = await client.capture(capture).catch((e: unknown) => e);
    expect(deep).toBeInstanceOf(DecodeError);
    expect((deep as DecodeError).details).toMatchObject({ format: 'json', failure: 'too-deep', operation: 'capture', outcome: 'unknown' });
    // 64 levels are read (it then fails only on the shape: not a list of elements).
    body = nestedAnswer(63);
    const atLimit = await client.capture(capture).catch((e: unknown) => e);
    expect((atLimit as DecodeError | undefined)?.details?.failure).not.toBe('too-deep');
    // Brackets inside a string are text, not nesting, however many there are.
    body = nestedAnswer(2, '{['.repeat(200));
    const answer = (await client.capture(capture)) as { return_message: string; capture_orders: unknown[] };
    expect(answer.return_message).toBe('{['.repeat(200));
    expect(answer.capture_orders).toHaveLength(1);
  });
});
