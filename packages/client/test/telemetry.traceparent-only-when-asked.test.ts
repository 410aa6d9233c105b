// The interface lists no traceparent header (UNKNOWNS U58): the client sends none unless `telemetry.propagate` is on,
// and then it names the try's own span, as the server in front of the sandbox sees it.
import { SpanKind, trace } from '@opentelemetry/api';
import { startSandbox } from '@gw/sandbox';
import { operations } from '@gw/types';
import { captureTelemetry } from '@gw/test-support/telemetry';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { cardPayment, clientSpans, reply, sandboxClient, startForwardingServer } from './support.ts';

const telemetry = captureTelemetry();
afterAll(() => telemetry.stop());
beforeEach(() => telemetry.reset());

const QUERY = operations.query.path;
const PAYMENT = operations.authoriseCard.path;

describe('traceparent to the gateway', () => {
  it("is not sent by default, even under a caller's span", async () => {
    await using sandbox = await startSandbox();
    await using front = await startForwardingServer(sandbox, (_request, text, res) => reply(res, 200, text));
    await using client = sandboxClient(front);
    await trace.getTracer('test').startActiveSpan('job', async (span) => {
      await client.query({ order_no: ['X'] });
      span.end();
    });
    expect(front.received).toHaveLength(1);
    expect(front.received[0]!.headers.traceparent).toBeUndefined();
    expect(front.received[0]!.headers.tracestate).toBeUndefined();
    expect(clientSpans(telemetry, QUERY)).toHaveLength(1);
  });

  it("is sent with telemetry: { propagate: true }, naming each try's span", async () => {
    await using sandbox = await startSandbox();
    await using front = await startForwardingServer(sandbox, (_request, text, res) => reply(res, 200, text));
    await using client = sandboxClient(front, { telemetry: { propagate: true } });
    await client.query({ order_no: ['X'] });
    await client.query({ order_no: ['Y'] });
    const spans = clientSpans(telemetry, QUERY);
    expect(spans).toHaveLength(2);
    expect(front.received.map((r) => r.headers.traceparent)).toEqual(spans.map((s) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`));
  });

  it("is accepted by the sandbox, whose SERVER span of the exchange continues the trace as the try's child", async () => {
    await using sandbox = await startSandbox();
    await using client = sandboxClient(sandbox, { telemetry: { propagate: true } });
    await expect(client.authoriseCard(cardPayment())).resolves.toMatchObject({ order_status: '1' });
    const [tried] = clientSpans(telemetry, PAYMENT);
    const served = telemetry.spans().filter((s) => s.instrumentationScope.name === '@gw/sandbox' && s.kind === SpanKind.SERVER);
    expect(served).toHaveLength(1);
    expect(served[0]!.spanContext().traceId).toBe(tried!.spanContext().traceId);
    expect(served[0]!.parentSpanContext?.spanId).toBe(tried!.spanContext().spanId);
  });

  it("without it the sandbox's span starts a trace of its own", async () => {
    await using sandbox = await startSandbox();
    await using client = sandboxClient(sandbox);
    await client.authoriseCard(cardPayment());
    const [tried] = clientSpans(telemetry, PAYMENT);
    const [served] = telemetry.spans().filter((s) => s.instrumentationScope.name === '@gw/sandbox' && s.kind === SpanKind.SERVER);
    expect(served!.spanContext().traceId).not.toBe(tried!.spanContext().traceId);
  });

  it('is sent on every try of a retried query, each naming its own span', async () => {
    await using sandbox = await startSandbox();
    let tries = 0;
    await using front = await startForwardingServer(sandbox, (_request, text, res) => (++tries === 1 ? reply(res, 503, 'busy') : reply(res, 200, text)));
    await using client = sandboxClient(front, { telemetry: { propagate: true } });
    await client.query({ order_no: ['X'] });
    const spans = clientSpans(telemetry, QUERY);
    expect(spans).toHaveLength(2);
    expect(spans[0]!.attributes['http.response.status_code']).toBe(503);
    expect(front.received.map((r) => r.headers.traceparent)).toEqual(spans.map((s) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`));
  });
});

describe('the telemetry option', () => {
  it('anything but false or an object { propagate?: boolean } is a ConfigError naming it', async () => {
    await using sandbox = await startSandbox();
    expect(() => sandboxClient(sandbox, { telemetry: 'on' as never })).toThrow(
      expect.objectContaining({ code: 'GW_CONFIG', message: expect.stringContaining('telemetry') }),
    );
    expect(() => sandboxClient(sandbox, { telemetry: { propagate: 'yes' as never } })).toThrow(
      expect.objectContaining({ code: 'GW_CONFIG', message: expect.stringContaining('telemetry.propagate') }),
    );
  });
});
