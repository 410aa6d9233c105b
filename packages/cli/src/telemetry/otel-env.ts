// When the CLI starts the OpenTelemetry Node SDK: only for the commands that talk to a gateway or serve one, and only
// when the standard OTEL_* variables ask for an exporter. Nothing here loads the SDK.
import { listOf } from './otel-list.ts';

/** The commands that start the SDK when the environment asks for it. */
export const TELEMETRY_COMMANDS: ReadonlySet<string> = new Set(['batch', 'call', 'proxy', 'sandbox', 'listen']);

const EXPORTER_VARIABLES = ['OTEL_TRACES_EXPORTER', 'OTEL_METRICS_EXPORTER'] as const;
const ENDPOINT_VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'] as const;

/**
 * True when the environment asks for telemetry: OTEL_TRACES_EXPORTER or OTEL_METRICS_EXPORTER set to anything but
 * `none`, or an OTLP endpoint set; never with OTEL_SDK_DISABLED=true.
 */
export function telemetryRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (EXPORTER_VARIABLES.some((name) => listOf(env[name]).some((exporter) => exporter !== 'none'))) return true;
  return ENDPOINT_VARIABLES.some((name) => (env[name] ?? '').trim() !== '');
}

/** Whether `gw <argv>` starts the SDK under `env`. */
export function startsTelemetry(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return argv[0] !== undefined && TELEMETRY_COMMANDS.has(argv[0]) && telemetryRequested(env);
}
