// The CLI starts the OpenTelemetry SDK only for the commands that call or serve a gateway, and only when the
// standard OTEL_* variables ask for an exporter; never with OTEL_SDK_DISABLED=true. The process resource detector
// (it reports the command line, which may carry --secret) never runs.
import { describe, expect, it } from 'vitest';
import { startsTelemetry, telemetryRequested } from '../src/telemetry/otel-env.ts';
import { resourceDetectorNames, serviceNamed } from '../src/telemetry/resource-env.ts';

describe('when the SDK starts', () => {
  it.each([
    [{}, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_METRICS_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' }, false],
    [{ OTEL_TRACES_EXPORTER: ' None , ' }, false],
    [{ OTEL_TRACES_EXPORTER: '' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://127.0.0.1:4318/v1/metrics' }, true],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, false],
    [{ OTEL_SERVICE_NAME: 'payments' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'TRUE' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'false' }, true],
  ] as const)('%j: %s', (env, expected) => {
    expect(telemetryRequested(env)).toBe(expected);
  });

  it('for batch, call, proxy, sandbox and listen only', () => {
    const env = { OTEL_TRACES_EXPORTER: 'otlp' };
    for (const command of ['batch', 'call', 'proxy', 'sandbox', 'listen']) expect(startsTelemetry([command, '--help'], env)).toBe(true);
    for (const argv of [['decode'], ['spec', 'drift'], ['--version'], [], ['demo'], ['completion', 'bash']]) expect(startsTelemetry(argv, env)).toBe(false);
  });
});

describe('the resource', () => {
  it('never runs the process detector: all (the default) is env, host, os and serviceinstance; process is dropped', () => {
    expect(resourceDetectorNames({})).toBe('env,host,os,serviceinstance');
    expect(resourceDetectorNames({ OTEL_NODE_RESOURCE_DETECTORS: 'all' })).toBe('env,host,os,serviceinstance');
    expect(resourceDetectorNames({ OTEL_NODE_RESOURCE_DETECTORS: 'process,env' })).toBe('env');
    expect(resourceDetectorNames({ OTEL_NODE_RESOURCE_DETECTORS: 'process' })).toBe('none');
    expect(resourceDetectorNames({ OTEL_NODE_RESOURCE_DETECTORS: 'none' })).toBe('none');
  });

  it('is named gw unless OTEL_SERVICE_NAME or service.name in OTEL_RESOURCE_ATTRIBUTES names it', () => {
    expect(serviceNamed({})).toBe(false);
    expect(serviceNamed({ OTEL_SERVICE_NAME: 'refunds' })).toBe(true);
    expect(serviceNamed({ OTEL_RESOURCE_ATTRIBUTES: 'team=payments,service.name=refunds' })).toBe(true);
    expect(serviceNamed({ OTEL_RESOURCE_ATTRIBUTES: 'team=payments' })).toBe(false);
  });
});
