import type * as OtelApi from '@opentelemetry/api';
import type { Context, Meter, Span, Tracer } from '@opentelemetry/api';
import { lazyTelemetryGate } from '@gw/types';
import { makeInstruments, type BatchInstruments } from './batch-metrics.ts';

/** The name of the batch's tracer and meter. */
export const INSTRUMENTATION_SCOPE = '@gw/batch';

/** The gate, made at the first batch (so that `gw batch --help` loads no API); null when the API is not installed. */
const batchGate = lazyTelemetryGate<typeof OtelApi, Tracer, Meter, BatchInstruments, Context>({
  fromUrl: import.meta.url,
  name: INSTRUMENTATION_SCOPE,
  instruments: makeInstruments,
});

/** What the batch records with while an SDK is registered: the API, a tracer and the instruments (no-ops for a kind not registered). */
export interface BatchTelemetryNow {
  readonly api: typeof OtelApi;
  readonly tracer: Tracer;
  readonly instruments: BatchInstruments;
}

let noop: { readonly tracer: Tracer; readonly instruments: BatchInstruments } | null = null;
let last: { readonly from: object; readonly now: BatchTelemetryNow } | null = null;

/**
 * The API, tracer and instruments while a tracer or meter provider is registered; null without the API or an SDK (at
 * the cost of the gate's check: two global reads). Made anew only when a provider is registered or taken away.
 */
export function batchTelemetryNow(): BatchTelemetryNow | null {
  const gate = batchGate();
  const now = gate?.now();
  if (!gate || !now) return null;
  if (last?.from === now) return last.now;
  noop ??= { tracer: gate.api.trace.getTracer(INSTRUMENTATION_SCOPE), instruments: makeInstruments(gate.api.createNoopMeter()) };
  last = { from: now, now: { api: gate.api, tracer: now.tracer ?? noop.tracer, instruments: now.instruments ?? noop.instruments } };
  return last.now;
}

/** The active span, when an SDK is registered and one is active. */
export function activeSpan(): Span | undefined {
  return batchTelemetryNow()?.api.trace.getActiveSpan();
}

/** An error's `error.type`: gw's error code, else the error's class name. */
export function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code) return code;
  return error instanceof Error ? error.name : 'unknown';
}
