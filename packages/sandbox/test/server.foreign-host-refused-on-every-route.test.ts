// DNS rebinding: a page on http://evil.test whose name is re-pointed at 127.0.0.1 sends `Host: evil.test`. Every route
// of the sandbox refuses such a request (and one without a Host) with 403 before anything happens.
import { request } from 'node:http';
import { connect } from 'node:net';
import { decodeCardRespon } from '@gw/xml-codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { hostAllowed } from '../src/server/allowed-hosts.ts';
import { cardPayment, encodeBody, send, signed } from './harness.ts';
import { createAlternative } from './pages-harness.ts';

interface Answer {
  status: number;
  text: string;
  json: any;
}

function parse(status: number, text: string): Answer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, text, json };
}

/** An HTTP/1.1 request to the sandbox on 127.0.0.1 with the given Host header, as a rebound browser sends it. */
function withHost(sandbox: Sandbox, method: string, path: string, host: string, body = '', contentType = 'application/json'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { host, 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) };
    const req = request({ host: '127.0.0.1', port: sandbox.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(parse(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A request written by hand: HTTP/1.0 without a Host header when `host` is null (HTTP/1.1 requires one; node:http answers
 * 400 to one without), else HTTP/1.1 with that Host line exactly (node:http's client replaces an empty one).
 */
function rawRequest(sandbox: Sandbox, method: string, path: string, host: string | null, body = '', contentType = 'application/json'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(sandbox.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve(parse(status, text.slice(text.indexOf('\r\n\r\n') + 4)));
    });
    const start = host === null ? `${method} ${path} HTTP/1.0\r\n` : `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n`;
    socket.write(`${start}Content-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ allowedHosts: ['team.test', '.corp.test'] });
});
afterAll(() => sandbox.stop());

describe("a request whose Host is not the sandbox's (DNS rebinding)", () => {
  it('is refused with 403 naming allowedHosts and --allowed-host on /v1, a shopper page, the control API and the console; nothing changes', async () => {
    const paid = decodeCardRespon((await send(sandbox, 'authoriseCard', cardPayment({ amount: '30.00' }))).text);
    const capture = encodeBody(
      'capture',
      await signed('capture', { capture_orders: [{ transaction_id: paid.transaction_id, order_no: paid.order_no, currency: 'USD', amount: '30.00' }] }),
    );
    const pending = await createAlternative(sandbox);
    const payPath = new URL(pending.issuerUrl).pathname;
    sandbox.faults.inject('/v1/refund', 'http-5xx');
    const requestsBefore = sandbox.state.requestCount;
    const ledgerBefore = sandbox.state.ledger.length;

    const routes = [
      ['POST', '/v1/capture', capture, 'application/json'],
      ['GET', payPath, '', 'text/plain'],
      ['POST', payPath, 'sandbox_action=approve', 'application/x-www-form-urlencoded'],
      ['GET', '/sandbox/api/orders', '', 'application/json'],
      ['POST', '/sandbox/api/clock/advance', '{"seconds":86400}', 'application/json'],
      ['PUT', '/sandbox/api/faults', '{}', 'application/json'],
      ['POST', '/sandbox/api/reset', '', 'application/json'],
      ['GET', '/sandbox/console', '', 'text/plain'],
      ['POST', '/sandbox/console/reset', 'confirm=yes', 'application/x-www-form-urlencoded'],
      ['GET', '/sandbox/nothing-here', '', 'text/plain'],
    ] as const;
    const port = sandbox.port;
    const foreign = [
      `evil.test:${port}`,
      'evil.test',
      `team.test.evil.test:${port}`,
      `127.0.0.1.evil.test:${port}`,
      `localhost.evil.test:${port}`,
      `notcorp.test:${port}`,
      '127.0.0.1@evil.test',
      '',
      null,
    ];
    for (const host of foreign) {
      for (const [method, path, body, contentType] of routes) {
        const answer =
          host === null || host === ''
            ? await rawRequest(sandbox, method, path, host, body, contentType)
            : await withHost(sandbox, method, path, host, body, contentType);
        const where = `${method} ${path} with ${host === null ? 'no Host' : `Host ${JSON.stringify(host)}`}`;
        expect(answer.status, where).toBe(403);
        expect(answer.text, where).toContain('allowedHosts');
        expect(answer.text, where).toContain('--allowed-host');
        if (path.startsWith('/sandbox/api/'))
          expect(answer.json.error, where).toMatchObject({ code: 'host_not_allowed', details: { host, option: 'allowedHosts', flag: '--allowed-host' } });
        else expect(answer.json, where).toMatchObject({ return_status: '0', errors: [{ path: 'headers/host' }] });
      }
    }

    // Nothing happened: no capture, no approval, no clock move, no reset, faults as they were, no request logged.
    expect(sandbox.state.requestCount).toBe(requestsBefore);
    expect(sandbox.state.ledger).toHaveLength(ledgerBefore);
    expect(sandbox.state.orders.get(paid.transaction_id!)?.state).toBe('authorised');
    expect(sandbox.state.orders.get(pending.transactionId)?.state).toBe('pending');
    const clock = await withHost(sandbox, 'GET', '/sandbox/api/clock', `127.0.0.1:${port}`);
    expect(clock.json.offsetMs).toBe(0);
    const faults = await withHost(sandbox, 'GET', '/sandbox/api/faults', `127.0.0.1:${port}`);
    expect(faults.json.queued).toEqual({ '/v1/refund': ['http-5xx'] });
    expect(sandbox.state.internalErrors).toEqual([]);
  });

  it('is answered for 127.0.0.1, localhost, other loopback names and addresses, and the configured names', async () => {
    const port = sandbox.port;
    const own = [
      `127.0.0.1:${port}`,
      '127.0.0.1',
      `localhost:${port}`,
      'LOCALHOST',
      `app.localhost:${port}`,
      'localhost.',
      `127.8.9.10:${port}`,
      `[::1]:${port}`,
      `team.test:${port}`,
      'Team.Test',
      'corp.test',
      `a.b.corp.test:${port}`,
    ];
    for (const host of own) {
      const answer = await withHost(sandbox, 'GET', '/sandbox/api/clock', host);
      expect([host, answer.status]).toEqual([host, 200]);
    }
    expect((await withHost(sandbox, 'GET', '/sandbox/console', `team.test:${port}`)).status).toBe(200);
    const pending = await createAlternative(sandbox);
    const page = await withHost(
      sandbox,
      'POST',
      new URL(pending.issuerUrl).pathname,
      `localhost:${port}`,
      'sandbox_action=approve',
      'application/x-www-form-urlencoded',
    );
    expect(page.status).toBe(303);
    expect(sandbox.state.orders.get(pending.transactionId)?.state).toBe('authorised');
  });

  it('is told apart by name only: loopback, the listening address (as given and as bound) and allowed names, a leading dot allowing the names under it', () => {
    const allows = hostAllowed({ listening: ['mybox.lan', '192.0.2.10'], allowedHosts: ['team.test', '.corp.test'] });
    const yes = [
      '127.0.0.1:1',
      '127.255.255.254',
      '[::1]:8787',
      '[0:0:0:0:0:0:0:1]',
      'localhost',
      'x.localhost',
      'mybox.lan:8787',
      '192.0.2.10:8787',
      'team.test',
      'corp.test',
      'a.corp.test',
    ];
    const no = [
      undefined,
      '',
      ':8787',
      'evil.test',
      '192.0.2.11',
      '[::2]:8787',
      '10.0.0.1',
      'team.test.evil.test',
      'xcorp.test',
      'localhost.evil.test',
      'evil.test/localhost',
      'user@localhost',
      '[::1',
      '128.0.0.1',
    ];
    expect(yes.filter((h) => !allows(h))).toEqual([]);
    expect(no.filter((h) => allows(h))).toEqual([]);
  });
});

// A sandbox on a LAN address answers that address as Host. Checked on the allow-list itself, not by connecting: tests
// here send traffic to loopback addresses only.
describe('a sandbox listening on a non-loopback address', () => {
  it('answers its own address as Host; a sandbox on 127.0.0.1 refuses that address', async () => {
    const lan = hostAllowed({ listening: ['192.0.2.2', '192.0.2.2'], allowedHosts: [] });
    expect(lan('192.0.2.2:8787')).toBe(true);
    expect(lan('192.0.2.3:8787')).toBe(false);
    expect((await withHost(sandbox, 'GET', '/sandbox/api/clock', `192.0.2.2:${sandbox.port}`)).status).toBe(403);
  });
});
