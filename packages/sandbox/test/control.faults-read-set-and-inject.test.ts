import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.ts';
import { api } from './control-harness.ts';
import { send } from './harness.ts';

const capture = { capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] };

describe('control API: faults', () => {
  it('sets rules that the next /v1 calls meet, reads them back, and switches them off', async () => {
    await using sandbox = await startSandbox();
    const set = await api(sandbox, 'PUT', 'faults', { '/v1/capture': { http5xx: 1 } });
    expect(set.status).toBe(200);
    expect(set.json.rules).toEqual({ '/v1/capture': { http5xx: 1 } });
    expect((await send(sandbox, 'capture', capture)).status).toBe(503);
    expect((await api(sandbox, 'GET', 'faults')).json).toEqual({ rules: { '/v1/capture': { http5xx: 1 } }, queued: {} });
    await api(sandbox, 'PUT', 'faults', { rules: {} });
    expect((await send(sandbox, 'capture', capture)).status).toBe(200);
  });

  it('injects one-shot faults: the next request meets them, the one after does not', async () => {
    await using sandbox = await startSandbox();
    const injected = await api(sandbox, 'POST', 'faults/inject', { path: '/v1/capture', kind: 'reset-before', times: 1 });
    expect(injected.json.queued).toEqual({ '/v1/capture': ['reset-before'] });
    await expect(send(sandbox, 'capture', capture)).rejects.toThrow();
    expect((await send(sandbox, 'capture', capture)).status).toBe(200);
    expect(sandbox.state.requests.map((r) => r.outcome)).toEqual(['reset-before', 'ok']);
  });

  it('refuses bad rules and bad one-shot faults with every problem at once, changing nothing', async () => {
    await using sandbox = await startSandbox();
    const rules = await api(sandbox, 'PUT', 'faults', {
      '/v1/capture': { http5xx: 1.5, resetAfter: 0.2, colour: 1 },
      '/v2/pay': {},
      '*': { latencyMs: [50, 10] },
    });
    expect(rules.status).toBe(400);
    expect(rules.json.error.details.problems.map((p: { path: string }) => p.path)).toEqual([
      '"/v1/capture".http5xx',
      '"/v1/capture".colour',
      '"/v2/pay"',
      '"*".latencyMs',
    ]);
    const inject = await api(sandbox, 'POST', 'faults/inject', { path: '*', kind: 'explode', times: 0 });
    expect(inject.json.error.details.problems.map((p: { path: string }) => p.path)).toEqual(['/path', '/kind', '/times']);
    expect((await api(sandbox, 'PUT', 'faults', 'not json')).json.error.code).toBe('invalid_request');
    expect((await api(sandbox, 'GET', 'faults')).json).toEqual({ rules: {}, queued: {} });
  });
});
