import type * as OtelApi from '@opentelemetry/api';
import { optionalPeer } from '@gw/types';

/** The OpenTelemetry API as the application installed it, loaded once, or null when it is not installed. */
let loaded: typeof OtelApi | null | undefined;

/** The OpenTelemetry API (an optional peer), or null: without it every telemetry call of the batch is a no-op. */
export function otelApi(): typeof OtelApi | null {
  if (loaded === undefined) loaded = optionalPeer<typeof OtelApi>(import.meta.url, '@opentelemetry/api');
  return loaded;
}

/** The name of the batch's tracer and meter. */
export const INSTRUMENTATION_SCOPE = '@gw/batch';

/** An error's `error.type`: gw's error code, else the error's class name. */
export function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code) return code;
  return error instanceof Error ? error.name : 'unknown';
}
