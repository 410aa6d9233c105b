import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index.ts';
import { authorisedOrder, send } from './harness.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe('faults for tests', () => {
  it('reset after processing: the capture happens, the caller gets no answer', async () => {
    const order = await authorisedOrder(sandbox);
    sandbox.faults.inject('/v1/capture', 'reset-after');
    await expect(send(sandbox, 'capture', { capture_orders: [order] })).rejects.toThrow();
    expect(sandbox.state.orders.get(order.transaction_id)?.state).toBe('captured');
    expect(sandbox.state.appliedCounts('capture').get(order.transaction_id)).toBe(1);
  });

  it('reset before processing: nothing happens', async () => {
    const order = await authorisedOrder(sandbox);
    sandbox.faults.inject('/v1/capture', 'reset-before');
    await expect(send(sandbox, 'capture', { capture_orders: [order] })).rejects.toThrow();
    expect(sandbox.state.orders.get(order.transaction_id)?.state).toBe('authorised');
    expect(sandbox.state.requests.at(-1)).toMatchObject({ path: '/v1/capture', processed: false, outcome: 'reset-before' });
  });

  it('HTTP 5xx: a structured 503, nothing processed', async () => {
    const order = await authorisedOrder(sandbox);
    sandbox.faults.inject('/v1/capture', 'http-5xx');
    const reply = await send(sandbox, 'capture', { capture_orders: [order] });
    expect(reply.status).toBe(503);
    expect(reply.json).toMatchObject({ return_status: '0' });
    expect(sandbox.state.orders.get(order.transaction_id)?.state).toBe('authorised');
  });

  it('added latency delays the answer', async () => {
    await using slow = await startSandbox({ faults: { '/v1/retrievalTrans': { latencyMs: 150 } } });
    const started = performance.now();
    const reply = await send(slow, 'query', { order_no: 'X' });
    expect(reply.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('random faults follow the seed: the same seed gives the same sequence', async () => {
    const run = async () => {
      await using s = await startSandbox({ seed: 42, faults: { '*': { http5xx: 0.5 } } });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await send(s, 'query', { order_no: 'X' })).status);
      return statuses;
    };
    const first = await run();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await run()).toEqual(first);
  });

  it('each route follows its own seeded sequence, whatever traffic other routes see in between', async () => {
    const run = async (otherRequestsBetween: number) => {
      await using s = await startSandbox({ seed: 7, faults: { '/v1/retrievalTrans': { http5xx: 0.5 }, '/v1/capture': { http5xx: 0.5, latencyMs: [0, 2] } } });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        for (let k = 0; k < otherRequestsBetween; k++)
          await send(s, 'capture', { capture_orders: [{ transaction_id: `T${i}-${k}`, order_no: 'X', currency: 'USD', amount: '1.00' }] });
        statuses.push((await send(s, 'query', { order_no: 'X' })).status);
      }
      return statuses;
    };
    const alone = await run(0);
    expect(alone).toContain(503);
    expect(alone).toContain(200);
    expect(await run(3)).toEqual(alone);
  });
});
