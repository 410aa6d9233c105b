import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRequestBody } from '@gw/xml-codec';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { cardPayment, post, signed } from './harness.ts';

let sandbox: Sandbox;
let trap: Server;
let trapUrl = '';
const trapped: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ notify: { attempts: 1, timeoutMs: 500 } });
  trap = createServer((req, res) => {
    trapped.push(req.url ?? '');
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/evil`;
});
afterAll(async () => {
  await sandbox.stop();
  await new Promise((resolve) => trap.close(resolve));
});

const injected = () => ({ subscription: { contract_name: 'EVIL', interval: 'day', interval_count: '1' }, note: 'INJECTED-NOTE', notify_url: trapUrl });

describe('a signed form body extended with __proto__', () => {
  for (const operation of ['authoriseCard', 'checkout'] as const) {
    it(`${operation}: the appended member neither creates a contract, nor is echoed, nor redirects the notification`, async () => {
      const record = await signed(operation, cardPayment({ notify_url: '' }));
      const body = `${encodeRequestBody(operation, record, { encoding: 'form' })}&__proto__=${encodeURIComponent(JSON.stringify(injected()))}`;
      const reply = await post(sandbox, operation === 'checkout' ? '/v1/checkout' : '/v1/authorise', body, 'application/x-www-form-urlencoded');
      await sandbox.notificationsIdle(2000);
      expect(reply.status).toBeLessThan(500);
      expect(reply.text).not.toContain('INJECTED-NOTE');
      expect([...sandbox.state.subscriptions.values()].map((s) => s.contractName)).not.toContain('EVIL');
      expect(sandbox.state.notifications.map((n) => n.url)).not.toContain(trapUrl);
      expect(trapped).toEqual([]);
      // Refused as a whole, naming the member.
      expect(reply.status).toBe(400);
      expect(reply.json.errors).toContainEqual({ path: '__proto__', message: '__proto__ is not a field name' });
    });
  }

  it('refuses __proto__ inside a nested JSON member of a form body as well', async () => {
    const record = await signed('authoriseCard', cardPayment({ subscription: { contract_name: 'C1' } }));
    const body = encodeRequestBody('authoriseCard', record, { encoding: 'form' }).replace(
      encodeURIComponent('{"contract_name":"C1"}'),
      encodeURIComponent('{"contract_name":"C1","__proto__":{"note":"INJECTED-NOTE"}}'),
    );
    const reply = await post(sandbox, '/v1/authorise', body, 'application/x-www-form-urlencoded');
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toContainEqual({ path: 'subscription.__proto__', message: '__proto__ is not a field name' });
  });
});
