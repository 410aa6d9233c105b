import { startSandbox } from '@gw/sandbox';
import { until } from '@gw/test-support';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { ConnectionError, TimeoutError, type ErrorEvent } from '../src/index.ts';
import { authorisedOrder, requestsTo, sandboxClient } from './support.ts';

async function freePort(): Promise<number> {
  const probe = await startSandbox();
  await probe.stop();
  return probe.port;
}

describe('retries: queries, and requests that never left', () => {
  it('a query reset before processing is sent again and answered', async () => {
    await using sandbox = await startSandbox();
    await using client = sandboxClient(sandbox);
    sandbox.faults.inject('/v1/retrievalTrans', 'reset-before');
    await expect(client.query({ order_no: ['X'] })).resolves.toMatchObject({ return_status: '1' });
    expect(requestsTo(sandbox, '/v1/retrievalTrans').map((r) => r.outcome)).toEqual(['reset-before', 'ok']);
  });

  it('connection refused: retried with backoff until the gateway is up (a capture too: it never left)', async () => {
    const port = await freePort();
    let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
    const retries: ErrorEvent[] = [];
    // The client's own kind of Agent, passed in so the test can see when its idle connection is closed.
    const agent = new Agent({ keepAliveTimeout: 4_000, pipelining: 1 });
    await using client = sandboxClient(
      { url: `http://127.0.0.1:${port}` },
      {
        transport: { dispatcher: agent },
        retry: { attempts: 4, baseDelayMs: 150, maxDelayMs: 300 },
        hooks: {
          onError: (event) => {
            retries.push(event);
            // The gateway comes up while the client waits to try again.
            if (event.willRetry && !sandbox) void startSandbox({ port }).then((s) => (sandbox = s));
          },
        },
      },
    );
    try {
      await expect(client.query({ order_no: ['X'] })).resolves.toMatchObject({ return_status: '1' });
      expect(retries).toEqual([expect.objectContaining({ operation: 'query', attempt: 1, willRetry: true, error: expect.any(ConnectionError) })]);
      expect((retries[0]!.error as ConnectionError).details).toMatchObject({ sent: false, reason: 'ECONNREFUSED' });
      // A capture that was refused never left, so it is safe to send again, and the client does.
      let disconnected = false;
      agent.once('disconnect', () => (disconnected = true));
      await sandbox!.stop();
      sandbox = undefined;
      await until(() => disconnected, 2000, 'the client to see its idle connection closed');
      const before = retries.length;
      await expect(client.capture({ capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] })).resolves.toMatchObject({
        return_status: '1',
        capture_orders: [{ capture_status: '0' }],
      });
      expect(retries.slice(before)).toEqual([expect.objectContaining({ operation: 'capture', willRetry: true })]);
      expect((retries[before]!.error as ConnectionError).details.sent).toBe(false);
      expect(requestsTo(sandbox!, '/v1/capture')).toHaveLength(1);
    } finally {
      await sandbox?.stop();
      await agent.close();
    }
  });

  it('attempts run out: ConnectionError, nothing was sent', async () => {
    const port = await freePort();
    const attempts: number[] = [];
    await using client = sandboxClient(
      { url: `http://127.0.0.1:${port}` },
      { retry: { attempts: 3, baseDelayMs: 1 }, hooks: { onRequest: (e) => attempts.push(e.attempt) } },
    );
    const error = await client
      .capture({ capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).details).toMatchObject({ operation: 'capture', sent: false, reason: 'ECONNREFUSED', attempts: 3 });
    expect(attempts).toEqual([1, 2, 3]);
  });

  it("a query that times out is a TimeoutError (the time limit is the caller's; it is not tripled)", async () => {
    await using sandbox = await startSandbox({ faults: { '/v1/retrievalTrans': { latencyMs: 300 } } });
    await using client = sandboxClient(sandbox, { timeoutMs: 80 });
    const error = await client.query({ order_no: ['X'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).details).toMatchObject({ operation: 'query', timeoutMs: 80, sent: true });
    expect((error as TimeoutError).code).toBe('GW_TIMEOUT');
    // A per-call limit overrides the client's.
    await expect(client.query({ order_no: ['X'] }, { timeoutMs: 2_000 })).resolves.toMatchObject({ return_status: '1' });
  });

  it('a money-moving request that never got a connection in time is a TimeoutError, safe to send again', async () => {
    await using sandbox = await startSandbox();
    // A connector that never connects: the request waits in the queue and never reaches a socket.
    const stuck = new Agent({ connect: () => undefined });
    try {
      await using setup = sandboxClient(sandbox);
      const order = await authorisedOrder(setup);
      await using client = sandboxClient(sandbox, { timeoutMs: 100, transport: { dispatcher: stuck } });
      const error = await client.capture({ capture_orders: [order] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as TimeoutError).details.sent).toBe(false);
      expect((error as TimeoutError).message).toContain('safe to send again');
      expect(requestsTo(sandbox, '/v1/capture')).toHaveLength(0);
    } finally {
      await stuck.destroy();
    }
  });
});
