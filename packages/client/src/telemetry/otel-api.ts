import { optionalPeer } from '@gw/types';

/** The OpenTelemetry API module, as the application installed it. */
export type OtelApi = typeof import('@opentelemetry/api');

let loaded: OtelApi | null | undefined;

/** `@opentelemetry/api` (an optional peer) loaded once, or null when the application did not install it. */
export function otelApi(): OtelApi | null {
  if (loaded === undefined) loaded = optionalPeer<OtelApi>(import.meta.url, '@opentelemetry/api');
  return loaded;
}
