import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { SANDBOX_DEFAULT_SECRET, startSandbox, type Sandbox } from '@gw/sandbox';
import { authoriseOrders } from '@gw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw as run } from './io.ts';
import { sandboxClient } from './sandbox-harness.ts';

let sandbox: Sandbox;
let hostile: Server;
let hostileUrl: string;
let hostileRequests = 0;
beforeAll(async () => {
  sandbox = await startSandbox();
  // Answers every request with a signed-looking body nested 5,000 levels deep.
  hostile = createServer((request, response) => {
    hostileRequests += 1;
    request.resume();
    request.on('end', () => {
      const deep = `${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}`;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        `{"return_status":"1","return_message":"OK","capture_orders":[{"transaction_id":"T1","order_no":"O1","capture_status":"1","note":${deep}}],"encryption_data":"00"}`,
      );
    });
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as { port: number }).port}`;
});
afterAll(async () => {
  await sandbox.stop();
  await new Promise((resolve) => hostile.close(resolve));
});

const gw = (args: string[], stdin: unknown) => run(args, { stdin: JSON.stringify(stdin), cwd: import.meta.dirname });

describe('gw call when something throws after the request was sent', () => {
  it('a verifier that throws: the capture was applied, gw exits 8 (outcome unknown) with a code, never 1', async () => {
    const [paid] = await authoriseOrders(sandboxClient(sandbox), 1, { prefix: 'DOWN', amount: '4.00' });
    const { order_no } = paid!;
    const capture = { capture_orders: [paid] };
    const result = await gw(
      ['call', 'capture', '--data', '-', '--base-url', sandbox.url, '--sandbox-defaults', '--signer', join('fixtures', 'verifier-down-signer.ts')],
      capture,
    );
    expect(sandbox.state.appliedCounts('capture').get(paid!.transaction_id)).toBe(1);
    expect(result.status).toBe(EXIT_CODES.outcomeUnknown);
    expect(result.err).toContain('GW_OUTCOME_UNKNOWN');
    expect(result.err).toContain(`query by order_no ${order_no}`);
    expect(result.err).not.toContain('unexpected failure');
  });

  it('a verifier that throws quoting what was signed, on a card payment: gw exits 8 and its output names the order but holds none of the card data sent', async () => {
    const card = '4000056655665556';
    const payment = {
      order_no: `DOWN-CARD-${process.pid}`,
      currency: 'USD',
      amount: '4.00',
      card,
      expiration_month: '11',
      expiration_year: '2034',
      security_code: '918',
    };
    const before = sandbox.state.requests.length;
    const result = await gw(
      [
        'call',
        'authoriseCard',
        '--data',
        '-',
        '--base-url',
        sandbox.url,
        '--sandbox-defaults',
        '--signer',
        join('fixtures', 'verifier-down-quoting-signer.ts'),
      ],
      payment,
    );
    // The payment reached the gateway (its outcome is what is unknown), with the card in it.
    expect(sandbox.state.requests.length).toBe(before + 1);
    expect(result.status).toBe(EXIT_CODES.outcomeUnknown);
    expect(result.err).toContain(payment.order_no);
    const output = result.err + result.out;
    for (const secret of [card, card.slice(-10), SANDBOX_DEFAULT_SECRET]) expect(output, secret).not.toContain(secret);
    // The security code and expiry year as tokens of their own (not inside a longer number, a time or a port).
    for (const short of ['918', '2034']) expect(output, short).not.toMatch(new RegExp(`(?<![0-9A-Za-z.:])${short}(?![0-9A-Za-z:])`));
  });

  it('an answer nested 5,000 deep: gw exits 8 (outcome unknown: the capture may have been applied), never 1', async () => {
    const before = hostileRequests;
    const result = await gw(['call', 'capture', '--data', '-', '--base-url', hostileUrl, '--sandbox-defaults'], {
      capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }],
    });
    expect(hostileRequests).toBe(before + 1);
    expect(result.err).not.toContain('unexpected failure');
    expect(result.status).toBe(EXIT_CODES.outcomeUnknown);
    expect(JSON.parse(result.err.slice(result.err.indexOf('{')))).toMatchObject({ error: { details: { outcome: 'unknown' } } });
  });
});

describe('gw call when the signer throws before anything is sent', () => {
  it('exits 12 (not sent, safe to run again) and the gateway saw nothing', async () => {
    const before = sandbox.state.requests.length;
    const capture = { capture_orders: [{ transaction_id: 'T-SIGNER-DOWN', order_no: 'O-SIGNER-DOWN', currency: 'USD', amount: '1.00' }] };
    const result = await gw(
      ['call', 'capture', '--data', '-', '--base-url', sandbox.url, '--sandbox-defaults', '--signer', join('fixtures', 'signer-down-signer.ts')],
      capture,
    );
    expect(result.status).toBe(EXIT_CODES.notSent);
    expect(result.err).toContain('GW_NOT_SENT');
    expect(result.err).toContain('safe to send again');
    expect(sandbox.state.requests.length).toBe(before);
  });
});
