import { describe, expect, it } from 'vitest';
import { startSandbox } from '../src/index.ts';
import { api } from './control-harness.ts';
import { cardPayment, send } from './harness.ts';

const capture = { capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] };

describe('control API: answer drift', () => {
  it('PUT /sandbox/api/drift makes the next answers add, drop and retype members; {} switches it off', async () => {
    await using sandbox = await startSandbox();
    expect((await api(sandbox, 'GET', 'drift')).json).toEqual({ rules: {} });
    const rules = { authoriseCard: { add: { settlement_window: 'T+1' }, drop: ['order_status'] }, capture: { retype: ['capture_orders[].amount'] } };
    const set = await api(sandbox, 'PUT', 'drift', rules);
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ rules });
    const drifted = await send(sandbox, 'authoriseCard', cardPayment({ amount: '12.00' }));
    expect(drifted.text).toContain('<settlement_window>T+1</settlement_window>');
    expect(drifted.text).not.toContain('<order_status>');
    expect((await send(sandbox, 'capture', capture)).json.capture_orders[0].amount).toBe(1);
    expect((await api(sandbox, 'GET', 'drift')).json).toEqual({ rules });

    await api(sandbox, 'PUT', 'drift', { rules: {} });
    const clean = await send(sandbox, 'authoriseCard', cardPayment({ amount: '12.00' }));
    expect(clean.text).toContain('<order_status>');
    expect(clean.text).not.toContain('settlement_window');
    expect((await send(sandbox, 'capture', capture)).json.capture_orders[0].amount).toBe('1.00');
  });

  it('refuses bad drift rules with every problem at once, changing nothing', async () => {
    await using sandbox = await startSandbox({ answerDrift: { capture: { wrongSignature: true } } });
    const bad = await api(sandbox, 'PUT', 'drift', { capture: { add: [1], drop: 'amount', wrongSignature: 'yes', colour: 1 }, pay: {}, '*': [] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_request');
    expect(bad.json.error.details.problems.map((p: { path: string }) => p.path)).toEqual(['"capture".add', '"capture".drop', '"capture".wrongSignature', '"capture".colour', '"pay"', '"*"']);
    expect((await api(sandbox, 'GET', 'drift')).json).toEqual({ rules: { capture: { wrongSignature: true } } });
  });
});
