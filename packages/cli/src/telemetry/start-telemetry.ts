import { resourceDetectorNames, serviceNamed } from './resource-env.ts';

/** The service name the CLI's telemetry carries unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) names one. */
export const DEFAULT_SERVICE_NAME = 'gw';

/** How long the CLI waits at exit for the last spans and metric points to be exported, in ms. */
export const SHUTDOWN_WAIT_MS = 5_000;

/** A started SDK: `shutdown` exports what is left (the last metric points too) and waits at most SHUTDOWN_WAIT_MS. */
export interface CliTelemetry {
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry Node SDK, configured from the standard OTEL_* variables (exporters, OTLP endpoint and
 * protocol, `http/json` included, sampler, propagators), with service name `gw` by default. The SDK is imported here,
 * dynamically, so a command run without OTEL_* loads none of it.
 */
export async function startTelemetry(env: NodeJS.ProcessEnv): Promise<CliTelemetry> {
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const asked = env.OTEL_NODE_RESOURCE_DETECTORS;
  // The SDK reads its detectors from the environment in its constructor: the filtered list, then the user's again.
  env.OTEL_NODE_RESOURCE_DETECTORS = resourceDetectorNames(env);
  let sdk: InstanceType<typeof NodeSDK>;
  try {
    sdk = new NodeSDK(serviceNamed(env) ? {} : { serviceName: DEFAULT_SERVICE_NAME });
  } finally {
    if (asked === undefined) delete env.OTEL_NODE_RESOURCE_DETECTORS;
    else env.OTEL_NODE_RESOURCE_DETECTORS = asked;
  }
  sdk.start();
  let stopping: Promise<void> | undefined;
  return {
    shutdown: () => (stopping ??= boundedShutdown(sdk, SHUTDOWN_WAIT_MS)),
  };
}

/** `sdk.shutdown()`, given at most `ms`; an exporter that fails or hangs never fails or holds up the command. */
async function boundedShutdown(sdk: { shutdown(): Promise<void> }, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  try {
    await Promise.race([sdk.shutdown().catch(() => undefined), waited]);
  } finally {
    clearTimeout(timer);
  }
}
