import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControlLockError, startSandbox, type Sandbox } from '../src/index.ts';

const TOKEN = 'team-sandbox-control-token-7Qx2';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ controlToken: TOKEN });
});
afterAll(() => sandbox.stop());

const api = (path: string, init: RequestInit = {}) => fetch(`${sandbox.url}/sandbox/api/${path}`, { redirect: 'manual', ...init });
const consolePage = (path = '', init: RequestInit = {}) => fetch(`${sandbox.url}/sandbox/console${path}`, { redirect: 'manual', ...init });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('a sandbox locked with a control token', () => {
  it('refuses the control API without the token or with another (401, WWW-Authenticate), and changes nothing', async () => {
    // The clock's offset from real time: what an advance changes.
    const clock = async () => JSON.stringify(((await (await api('clock', { headers: bearer(TOKEN) })).json()) as { offsetMs: number }).offsetMs);
    const clockBefore = await clock();
    for (const headers of [{}, bearer('not-the-token-at-all-xxxxxxxxx'), { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }]) {
      const read = await api('orders', { headers });
      expect(read.status).toBe(401);
      expect(read.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await read.json()).toMatchObject({ error: { code: 'unauthorized', message: expect.stringContaining('--control-token-env') } });
      const change = await api('clock/advance', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"seconds":60}' });
      expect(change.status).toBe(401);
    }
    expect(await clock()).toBe(clockBefore);
  });

  it('answers the control API with the token', async () => {
    const read = await api('orders', { headers: bearer(TOKEN) });
    expect(read.status).toBe(200);
    const advance = await api('clock/advance', { method: 'POST', headers: { ...bearer(TOKEN), 'content-type': 'application/json' }, body: '{"seconds":1}' });
    expect(advance.status).toBe(200);
  });

  it('shows the console only after its login form: a wrong token is refused, the right one sets an HttpOnly, SameSite=Strict cookie', async () => {
    const locked = await consolePage();
    expect(locked.status).toBe(401);
    const form = await locked.text();
    expect(form).toContain('action="/sandbox/console/login"');
    expect(form).not.toContain(TOKEN);
    // A console form without the cookie (the reset) does nothing.
    expect((await consolePage('/reset', { method: 'POST', body: '' })).status).toBe(401);

    const wrong = await consolePage('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=guess-guess-guess-guess',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();

    const login = await consolePage('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(TOKEN)}`,
    });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(';')[0]!;
    const orders = await consolePage('', { headers: { cookie: session } });
    expect(orders.status).toBe(200);
    expect(await orders.text()).toContain('Orders');
    // The session is the console's, not the API's: the API still wants the token.
    expect((await api('orders', { headers: { cookie: session } })).status).toBe(401);
  });

  it("leaves /v1 alone: the gateway's operations are not the control", async () => {
    const reply = await fetch(`${sandbox.url}/v1/retrievalTrans`, { method: 'POST', body: 'merchant_id=M1' });
    expect(reply.status).not.toBe(401);
  });
});

describe('settings that would leave a shared sandbox open', () => {
  it('listening on an address other than loopback with the control on and no token is refused at start, naming both ways out', async () => {
    const refused = await startSandbox({ host: '0.0.0.0', port: 0 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SandboxControlLockError);
    expect(refused).toMatchObject({ code: 'GW_CONFIG', details: { host: '0.0.0.0', reason: 'open-on-a-shared-address' } });
    expect((refused as Error).message).toMatch(/controlToken, gw sandbox --control-token-env NAME.*control: false, gw sandbox --no-control/);
    for (const options of [{ control: false }, { controlToken: TOKEN }]) {
      const shared = await startSandbox({ host: '0.0.0.0', port: 0, ...options });
      await shared.stop();
    }
  });

  it('a token shorter than 16 characters is refused', async () => {
    await expect(startSandbox({ controlToken: 'short' })).rejects.toMatchObject({ name: 'SandboxControlLockError', details: { reason: 'weak-token' } });
  });
});
