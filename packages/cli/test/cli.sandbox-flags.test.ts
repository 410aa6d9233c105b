import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@gw/client';
import { createHmacSha256Signer } from '@gw/signer-interface';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET, SANDBOX_PAYMENT_STATUS } from '@gw/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_CODES, runCli } from '../src/index.ts';
import { capturedIo, gwStarted } from './io.ts';

const dir = mkdtempSync(join(tmpdir(), 'gw-cli-sandbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SECRET = 'team-secret-9f3c1e';

/** GETs `path` from the sandbox at `url` (127.0.0.1) with the given Host header; resolves the status and body. */
function getWithHost(url: string, path: string, host: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: new URL(url).port, path, headers: { host }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject).end();
  });
}

/** Runs `gw sandbox ...` in this process; resolves once it printed its address. */
const running = (args: string[], env: Record<string, string> = {}) => gwStarted(['sandbox', ...args], /listening on (http:\S+)/, { env, cwd: dir });

describe('gw sandbox flags', () => {
  it('refuses bad flags naming every problem at once, exit 2, without printing a secret', async () => {
    const c = capturedIo({ cwd: dir });
    const args = [
      'sandbox',
      '--port',
      'eighty',
      '--latency',
      '-5',
      '--faults',
      '{"/v1/nope":{"http5xx":2}}',
      '--notify-attempts',
      '0',
      '--unknown-fields',
      'maybe',
      '--secret',
      SECRET,
      '--secret-env',
      'NO_SUCH_VAR',
      '--merchants',
      'missing.json',
      '--max-connections',
      '1.5',
      '--redirect-expiry',
      '10 minutes',
      '--allowed-host',
      'team.test:8787',
    ];
    const status = await runCli(args, c.io, c.signals);
    expect(status).toBe(EXIT_CODES.usage);
    const err = c.err();
    for (const flag of [
      '--port',
      '--latency',
      '--faults: "/v1/nope"',
      '"/v1/nope".http5xx',
      '--notify-attempts',
      '--unknown-fields',
      '--secret and --secret-env',
      '--secret-env NO_SUCH_VAR',
      '--merchants missing.json',
      '--max-connections',
      '--redirect-expiry "10 minutes"',
      '--allowed-host "team.test:8787"',
    ])
      expect(err).toContain(flag);
    expect(err).toMatch(/12 bad flag/);
    expect(err + c.out()).not.toContain(SECRET);
  });

  it('lists every flag in its help', async () => {
    const c = capturedIo();
    expect(await runCli(['sandbox', '--help'], c.io, c.signals)).toBe(0);
    for (const flag of [
      '--faults',
      '--latency',
      '--seed',
      '--secret',
      '--secret-env',
      '--merchants',
      '--notify-attempts',
      '--notify-base-delay-ms',
      '--redirect-expiry',
      '--state',
      '--no-control',
      '--control-token-env',
      '--allowed-host',
      '--max-body-bytes',
      '--headers-timeout-ms',
      '--request-timeout-ms',
      '--body-timeout-ms',
      '--keep-alive-timeout-ms',
      '--max-connections',
      '--unknown-fields',
    ]) {
      expect(c.out()).toContain(flag);
    }
  });

  it('runs with a secret from the environment, merchants, faults and a state file that survives a restart', async () => {
    writeFileSync(join(dir, 'merchants.json'), JSON.stringify([{ merchantId: 'M777', accountId: 'A777' }]));
    const state = 'team.sqlite';
    const args = [
      '--port',
      '0',
      '--secret-env',
      'TEAM_SECRET',
      '--merchants',
      'merchants.json',
      '--faults',
      '{"/v1/refund":{"http5xx":1}}',
      '--state',
      state,
      '--notify-attempts',
      '2',
    ];
    const first = await running(args, { TEAM_SECRET: SECRET });
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const signer = createHmacSha256Signer({ secret: SECRET });
    const client = createClient({ baseUrl: first.url, merchantId: 'M777', accountId: 'A777', signer, verifier: signer });
    const paid = await client.authoriseCard({
      order_no: 'CLI-STATE-1',
      amount: '12.00',
      currency: 'USD',
      card: '4111111111111111',
      expiration_month: '12',
      expiration_year: '2030',
      security_code: '123',
    });
    expect(paid.order_status).toBe('1');
    const refund = await fetch(`${first.url}/v1/refund`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refund.status).toBe(503);
    const faults = (await (await fetch(`${first.url}/sandbox/api/faults`)).json()) as { rules: unknown };
    expect(faults.rules).toEqual({ '/v1/refund': { http5xx: 1 } });
    expect(await first.stop()).toBe(0);
    expect(first.c.out()).toContain(`state kept in ${join(dir, state)}`);

    const second = await running(args, { TEAM_SECRET: SECRET });
    const client2 = createClient({ baseUrl: second.url, merchantId: 'M777', accountId: 'A777', signer, verifier: signer });
    const query = await client2.query({ transaction_id: paid.transaction_id });
    expect(query.orders_list?.[0]).toMatchObject({ transaction_id: paid.transaction_id });
    expect(second.c.out()).toContain('(1 orders loaded)');
    expect(await second.stop()).toBe(0);
    expect(first.c.out() + first.c.err() + second.c.out() + second.c.err()).not.toContain(SECRET);
  });

  it('expires a redirect payment the shopper left after --redirect-expiry', async () => {
    const run = await running(['--port', '0', '--redirect-expiry', '300ms']);
    const signer = createHmacSha256Signer({ secret: SANDBOX_DEFAULT_SECRET });
    const client = createClient({
      baseUrl: run.url,
      merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId,
      accountId: SANDBOX_DEFAULT_MERCHANT.accountId,
      signer,
      verifier: signer,
    });
    try {
      await client.authoriseAlternative({ order_no: 'CLI-EXPIRY-1', currency: 'BRL', amount: '80.00', payment_method: 'PIX' });
      const found = async () => (await client.query({ order_no: 'CLI-EXPIRY-1' })).orders_list![0]!;
      const status = async () => (await found()).payment_status;
      expect(await status()).toBe(SANDBOX_PAYMENT_STATUS.pending);
      await expect.poll(status, { timeout: 5000, interval: 50 }).toBe(SANDBOX_PAYMENT_STATUS.expired);
      const detail = (await (await fetch(`${run.url}/sandbox/api/orders/${(await found()).transaction_id}`)).json()) as {
        order: { history: { event: string; by: string; at: string }[] };
      };
      const [created, expired] = detail.order.history;
      expect([created!.event, expired!.event, expired!.by]).toEqual(['created', 'expired', 'clock']);
      expect(Date.parse(expired!.at) - Date.parse(created!.at)).toBeGreaterThanOrEqual(300);
    } finally {
      await client.close();
    }
    expect(await run.stop()).toBe(0);
  });

  it('answers a Host named by --allowed-host (repeatable, a leading dot for the names under it) and refuses another with 403 naming the flag', async () => {
    const run = await running(['--port', '0', '--allowed-host', 'team.test', '--allowed-host', '.corp.test']);
    const port = new URL(run.url).port;
    try {
      expect(run.c.out()).toContain('team.test, .corp.test');
      for (const host of [`team.test:${port}`, `ci.corp.test:${port}`, `127.0.0.1:${port}`, `localhost:${port}`])
        expect([host, (await getWithHost(run.url, '/sandbox/api/clock', host)).status]).toEqual([host, 200]);
      for (const host of [`evil.test:${port}`, `team.test.evil.test:${port}`]) {
        const refused = await getWithHost(run.url, '/sandbox/api/clock', host);
        expect([host, refused.status]).toEqual([host, 403]);
        expect(JSON.parse(refused.text)).toMatchObject({ error: { code: 'host_not_allowed', message: expect.stringContaining('--allowed-host') } });
      }
    } finally {
      expect(await run.stop()).toBe(0);
    }
    const plain = await running(['--port', '0']);
    expect((await getWithHost(plain.url, '/v1/capture', `team.test:${new URL(plain.url).port}`)).status).toBe(403);
    expect(await plain.stop()).toBe(0);
  });

  it('turns the control API and console off with --no-control', async () => {
    const run = await running(['--port', '0', '--no-control']);
    expect((await fetch(`${run.url}/sandbox/api/orders`)).status).toBe(404);
    expect(run.c.out()).not.toContain('/sandbox/console');
    expect(await run.stop()).toBe(0);
  });

  it('locks the control API and console with --control-token-env; refuses to listen on a shared address without it, exit 2', async () => {
    const TOKEN = 'team-control-token-4f9a1c7e';
    const c = capturedIo({ cwd: dir });
    expect(await runCli(['sandbox', '--port', '0', '--host', '0.0.0.0'], c.io, c.signals)).toBe(EXIT_CODES.usage);
    expect(c.err()).toMatch(/--control-token-env NAME.*--no-control/);
    const run = await running(['--port', '0', '--host', '0.0.0.0', '--control-token-env', 'TEAM_CONTROL'], { TEAM_CONTROL: TOKEN });
    try {
      const local = run.url.replace('0.0.0.0', '127.0.0.1');
      expect((await fetch(`${local}/sandbox/api/orders`)).status).toBe(401);
      expect((await fetch(`${local}/sandbox/api/orders`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
      expect(run.c.out()).toContain('locked with the control token');
      expect(run.c.out() + run.c.err()).not.toContain(TOKEN);
    } finally {
      expect(await run.stop()).toBe(0);
    }
  });

  it('refuses a state file that is not one, exit 2, naming the file', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'not a database\n'.repeat(100));
    const c = capturedIo({ cwd: dir });
    expect(await runCli(['sandbox', '--port', '0', '--state', 'notes.txt'], c.io, c.signals)).toBe(EXIT_CODES.usage);
    expect(c.err()).toContain(join(dir, 'notes.txt'));
  });
});
