import { ConfigError } from '../errors/config-error.ts';

/**
 * The client's OpenTelemetry: `false` turns it off; an object (the default `{}`) keeps it on wherever an SDK is
 * registered. Without `@opentelemetry/api` installed, or without an SDK, it costs one check per call.
 */
export type TelemetryOption = false | TelemetryOptions;

/** What the client's telemetry does besides spans and metrics. */
export interface TelemetryOptions {
  /**
   * Send a W3C `traceparent` header (and `tracestate` when the span has one) naming each try's span to the gateway.
   * Default false: the interface lists no such header (UNKNOWNS U58).
   */
  readonly propagate?: boolean;
}

/** The telemetry option checked: null when it is off. */
export interface ResolvedTelemetry {
  readonly propagate: boolean;
}

/** Checks the `telemetry` option and fills in its defaults. */
export function resolveTelemetry(value: unknown): ResolvedTelemetry | null {
  if (value === false) return null;
  if (value === undefined || value === true) return { propagate: false };
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError('telemetry', 'must be false or an object { propagate?: boolean }');
  const { propagate } = value as TelemetryOptions;
  if (propagate !== undefined && typeof propagate !== 'boolean') throw new ConfigError('telemetry.propagate', 'must be true or false');
  return { propagate: propagate ?? false };
}
