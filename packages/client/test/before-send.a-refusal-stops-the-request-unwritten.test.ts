import { startSandbox } from '@gw/sandbox';
import { describe, expect, it } from 'vitest';
import { NotSentError } from '../src/index.ts';
import { authorisedOrder, requestsTo, sandboxClient } from './support.ts';

class LeaseLapsed extends Error {}

describe("CallOptions.beforeSend: the caller's last check, just before the request is written", () => {
  it('runs once per try, just before the write, and a pass sends the request as usual', async () => {
    await using sandbox = await startSandbox();
    await using client = sandboxClient(sandbox);
    const order = await authorisedOrder(client);
    let checks = 0;
    await expect(client.capture({ capture_orders: [order] }, { beforeSend: () => void (checks += 1) })).resolves.toMatchObject({
      capture_orders: [{ capture_status: '1' }],
    });
    expect(checks).toBe(1);
    expect(requestsTo(sandbox, '/v1/capture')).toHaveLength(1);
  });

  it('a throw stops it unwritten: NotSentError (stage before-send, the thrown value as cause), not retried, nothing at the gateway', async () => {
    await using sandbox = await startSandbox();
    await using client = sandboxClient(sandbox, { retry: { attempts: 3, baseDelayMs: 1 } });
    const order = await authorisedOrder(client);
    const lapsed = new LeaseLapsed('lease of chunk 7 ends in 12 ms, under the 500 ms margin');
    let checks = 0;
    const error = await client
      .capture(
        { capture_orders: [order] },
        {
          beforeSend: () => {
            checks += 1;
            throw lapsed;
          },
        },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotSentError);
    expect((error as NotSentError).details).toMatchObject({ operation: 'capture', stage: 'before-send', sent: false, outcome: 'not-sent' });
    expect((error as NotSentError).cause).toBe(lapsed);
    expect(checks).toBe(1);
    expect(requestsTo(sandbox, '/v1/capture')).toHaveLength(0);
    // The order is still only authorised: a capture now goes through once.
    await expect(client.capture({ capture_orders: [order] })).resolves.toMatchObject({ capture_orders: [{ capture_status: '1' }] });
  });

  it('is checked again before a retried try: a try that never left and a check that then refuses sends nothing', async () => {
    const probe = await startSandbox();
    await probe.stop();
    await using client = sandboxClient({ url: probe.url }, { retry: { attempts: 3, baseDelayMs: 1 } });
    let checks = 0;
    // Connection refused: undici never reaches the write, so the check never runs and the try is retried.
    const error = await client
      .capture({ capture_orders: [{ transaction_id: 'T1', order_no: 'O1', currency: 'USD', amount: '1.00' }] }, { beforeSend: () => void (checks += 1) })
      .catch((e: unknown) => e);
    expect((error as { details?: { sent?: boolean } }).details?.sent).toBe(false);
    expect(checks).toBe(0);
  });
});
