// Without an SDK registered the client records nothing and sends no trace header; a client made before the SDK was
// registered records once it is (an application that starts OpenTelemetry after building its clients).
import { startSandbox } from '@gw/sandbox';
import { operations } from '@gw/types';
import { captureTelemetry } from '@gw/test-support/telemetry';
import { describe, expect, it } from 'vitest';
import { cardPayment, clientSpans, reply, sandboxClient, startForwardingServer } from './support.ts';

describe('telemetry follows the registered SDK', () => {
  it('no SDK: calls answer, no traceparent even with propagate; registered later: recorded; stopped: nothing again', async () => {
    await using sandbox = await startSandbox();
    await using front = await startForwardingServer(sandbox, (_request, text, res) => reply(res, 200, text));
    await using client = sandboxClient(front, { telemetry: { propagate: true } });
    await expect(client.authoriseCard(cardPayment())).resolves.toMatchObject({ order_status: '1' });
    expect(front.received[0]!.headers.traceparent).toBeUndefined();

    const telemetry = captureTelemetry();
    try {
      expect(clientSpans(telemetry)).toEqual([]);
      await client.authoriseCard(cardPayment());
      expect(clientSpans(telemetry).map((s) => s.name)).toEqual([`POST ${operations.authoriseCard.path}`]);
      expect(front.received[1]!.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      const metrics = (await telemetry.metrics()).scopeMetrics.flatMap((s) => s.metrics).map((m) => m.descriptor.name);
      expect(metrics).toContain('http.client.request.duration');
    } finally {
      await telemetry.stop();
    }
    await expect(client.authoriseCard(cardPayment())).resolves.toMatchObject({ order_status: '1' });
    expect(front.received[2]!.headers.traceparent).toBeUndefined();
  });
});
