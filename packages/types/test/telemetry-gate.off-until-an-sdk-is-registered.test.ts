import type * as Otel from '@opentelemetry/api';
import { captureTelemetry } from '@gw/test-support/telemetry';
import { describe, expect, it } from 'vitest';
import { parseTraceparent, serverAttributes, telemetryGate } from '../src/index.ts';

type Api = typeof Otel;
const gate = () =>
  telemetryGate<Api, Otel.Tracer, Otel.Meter, { counter: Otel.Counter }, Otel.Context>({
    fromUrl: import.meta.url,
    name: '@gw/test',
    version: '1.0.0',
    instruments: (meter) => ({ counter: meter.createCounter('gw.test') }),
  })!;

describe('parseTraceparent', () => {
  it('reads a version-00 traceparent and refuses malformed, zero and ff ones', () => {
    expect(parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
      isRemote: true,
    });
    expect(parseTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-later')?.traceFlags).toBe(0);
    for (const bad of [
      undefined,
      '',
      'garbage',
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra',
    ]) {
      expect(parseTraceparent(bad)).toBeNull();
    }
  });
});

describe('serverAttributes', () => {
  it('reads the address and port of a Host header, an IPv6 one included', () => {
    expect(serverAttributes('127.0.0.1:8080')).toEqual({ 'server.address': '127.0.0.1', 'server.port': 8080 });
    expect(serverAttributes('[::1]:443')).toEqual({ 'server.address': '::1', 'server.port': 443 });
    expect(serverAttributes('gateway.example')).toEqual({ 'server.address': 'gateway.example' });
    expect(serverAttributes(undefined)).toEqual({});
  });
});

describe('telemetryGate', () => {
  it('answers null while no SDK is registered, the tracer and instruments while one is, and null again after', async () => {
    const g = gate();
    expect(g.now()).toBeNull();
    expect(g.now()).toBeNull();
    const capture = captureTelemetry();
    try {
      const on = g.now();
      expect(on?.tracer).not.toBeNull();
      expect(on?.instruments).not.toBeNull();
      expect(g.now()).toBe(on);
      on!.tracer!.startSpan('gw test').end();
      expect(capture.spans().map((s) => s.name)).toEqual(['gw test']);
    } finally {
      await capture.stop();
    }
    expect(g.now()).toBeNull();
  });

  it('takes a request span parent from its traceparent when no propagator is registered', async () => {
    const g = gate();
    const capture = captureTelemetry();
    try {
      const parent = g.parentOf({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
      expect(g.api.trace.getSpanContext(parent)).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', isRemote: true });
      expect(g.api.trace.getSpanContext(g.parentOf({}))).toBeUndefined();
      // Inside a span (an HTTP instrumentation's server span), that span stays the parent.
      const outer = g.api.trace.getTracer('outer').startSpan('outer');
      const inside = g.api.context.with(g.api.trace.setSpan(g.api.context.active(), outer), () =>
        g.parentOf({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }),
      );
      expect(g.api.trace.getSpanContext(inside)?.spanId).toBe(outer.spanContext().spanId);
      outer.end();
    } finally {
      await capture.stop();
    }
  });
});
