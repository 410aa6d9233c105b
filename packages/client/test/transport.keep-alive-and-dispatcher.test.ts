import { startSandbox } from '@gw/sandbox';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { reply, sandboxClient, startRecordingServer } from './support.ts';

const answer = '{"return_status":"1","orders_list":[]}';

describe('transport', () => {
  it('reuses keep-alive connections', async () => {
    await using server = await startRecordingServer((_request, res) => reply(res, 200, answer));
    await using client = sandboxClient(server);
    for (let i = 0; i < 20; i++) await client.query({ order_no: [`O${i}`] });
    // undici checks an idle socket for a pending FIN/RST before reusing it (one tick), and meanwhile opens a second.
    expect(server.connections.count).toBeLessThanOrEqual(2);
    for (let burst = 0; burst < 6; burst++) await Promise.all(Array.from({ length: 8 }, (_, i) => client.query({ order_no: [`P${i}`] })));
    // 48 concurrent-in-bursts requests: the pool settles at about twice the concurrency instead of a connection each.
    expect(server.connections.count).toBeLessThanOrEqual(18);
    expect(server.received).toHaveLength(68);
  });

  it("transport.connections bounds the connections of the client's own Agent", async () => {
    await using server = await startRecordingServer((_request, res) => setTimeout(() => reply(res, 200, answer), 5));
    await using client = sandboxClient(server, { transport: { connections: 2 } });
    for (let burst = 0; burst < 3; burst++) await Promise.all(Array.from({ length: 10 }, (_, i) => client.query({ order_no: [`O${i}`] })));
    expect(server.connections.count).toBe(2);
    expect(server.received).toHaveLength(30);
  });

  it('a dispatcher passed in is used, and left open when the client closes', async () => {
    await using sandbox = await startSandbox();
    const agent = new Agent({ keepAliveTimeout: 1_000 });
    try {
      const client = sandboxClient(sandbox, { transport: { dispatcher: agent } });
      await client.query({ order_no: ['X'] });
      await client.close();
      expect(agent.closed).toBe(false);
      await using again = sandboxClient(sandbox, { transport: { dispatcher: agent } });
      await expect(again.query({ order_no: ['X'] })).resolves.toMatchObject({ return_status: '1' });
    } finally {
      await agent.close();
    }
  });
});
