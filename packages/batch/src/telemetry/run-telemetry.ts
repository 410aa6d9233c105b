import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { OrderOutcome, OutcomeKind } from '../outcome.ts';
import type { ClaimedChunk, StoreStep } from '../store/chunk-store.ts';
import { outcomeAttributes, type BatchInstruments } from './batch-metrics.ts';
import { NOOP_CHUNK, TracedChunk, type ChunkTelemetry } from './chunk-telemetry.ts';
import { batchTelemetryNow, type BatchTelemetryNow } from './otel-api.ts';
import { endFailed, inChild } from './spans.ts';

/** What a run is, as its span says: set once when it starts. */
export interface RunDescription {
  readonly operation: string;
  /** `run` (a new batch), `resume`, or `worker` (one more worker of a ledger batch). */
  readonly role: 'run' | 'resume' | 'worker';
  /** Where the batch is kept: a journal file, a PostgreSQL ledger, or memory (no journal). */
  readonly store: 'journal' | 'ledger' | 'memory';
  readonly batch: string | null;
  readonly journal: string | null;
  readonly holder: string;
  readonly concurrency: number;
  readonly maxRate: number | null;
  readonly maxInFlight: number | null;
  readonly maxResends: number;
  readonly timeoutMs: number;
  readonly leaseMs: number;
}

/** How a run ended, for its span: the batch's counts and throttles, this worker's own figures. */
export interface RunEnd {
  readonly counts: Readonly<Record<OutcomeKind, number>>;
  readonly throttled: number;
  readonly worker?: { readonly chunks: number; readonly takenOver: number; readonly refused: number; readonly slotsMissed: number } | undefined;
}

/** A batch run's telemetry: its span, its children, its metrics. Every method is cheap when nothing records. */
export interface RunTelemetry {
  within<T>(work: () => T): T;
  chunk(claimed: ClaimedChunk): ChunkTelemetry;
  /** The store's step (commits and leases) as a `gw.batch.step` span under the run. */
  step(commits: number, want: number, work: () => Promise<StoreStep>): Promise<StoreStep>;
  /** An order's final outcome, as this process records it (the `gw.batch.orders` counter). */
  outcome(outcome: OrderOutcome): void;
  /** A request of the batch (a send or a reconcile query): in flight while `work` runs. */
  request<T>(operation: string, query: boolean, work: () => Promise<T>): Promise<T>;
  /** The gateway throttled a request: an event on the span it happened under, and the counter. */
  throttled(retryAfterMs: number | null, pace: number | null, letThrough: number): void;
  end(end: RunEnd): void;
  failed(error: unknown): void;
}

/** Telemetry that does nothing: the OpenTelemetry API is not installed. */
export const NOOP_RUN: RunTelemetry = {
  within: (work) => work(),
  chunk: () => NOOP_CHUNK,
  step: (_commits, _want, work) => work(),
  outcome: () => {},
  request: (_operation, _query, work) => work(),
  throttled: () => {},
  end: () => {},
  failed: () => {},
};

/** Starts a run's span (`gw.batch <operation>`, INTERNAL) under the active context; a no-op without the API or an SDK. */
export function startRunTelemetry(run: RunDescription): RunTelemetry {
  const now = batchTelemetryNow();
  return now ? new TracedRun(now, run) : NOOP_RUN;
}

/** The run's span and instruments. */
class TracedRun implements RunTelemetry {
  readonly #api: typeof OtelApi;
  readonly #instruments: BatchInstruments;
  readonly #tracer: Tracer;
  readonly #span: Span;
  readonly #context: Context;
  readonly #operation: Attributes;
  readonly #outcomes: Readonly<Record<OutcomeKind, Attributes>>;

  constructor({ api, tracer, instruments }: BatchTelemetryNow, run: RunDescription) {
    this.#api = api;
    this.#instruments = instruments;
    this.#tracer = tracer;
    this.#span = this.#tracer.startSpan(`gw.batch ${run.operation}`, { kind: api.SpanKind.INTERNAL }, api.context.active());
    if (this.#span.isRecording()) this.#span.setAttributes(runAttributes(run));
    this.#context = api.trace.setSpan(api.context.active(), this.#span);
    this.#operation = { 'gw.operation': run.operation };
    this.#outcomes = outcomeAttributes(run.operation);
  }

  within<T>(work: () => T): T {
    return this.#api.context.with(this.#context, work);
  }

  chunk(claimed: ClaimedChunk): ChunkTelemetry {
    return new TracedChunk(this.#api, this.#tracer, this.#context, this.#instruments, this.#operation, claimed);
  }

  step(commits: number, want: number, work: () => Promise<StoreStep>): Promise<StoreStep> {
    const after = (step: StoreStep): Attributes => ({
      'gw.batch.leased': step.leased.length,
      'gw.batch.commits_refused': commits - step.held.size,
      'gw.batch.finished': step.finished,
    });
    return inChild(this.#api, this.#tracer, this.#context, 'gw.batch.step', () => ({ 'gw.batch.commits': commits, 'gw.batch.want': want }), work, after);
  }

  outcome(outcome: OrderOutcome): void {
    this.#instruments.orders.add(1, this.#outcomes[outcome.kind]);
  }

  async request<T>(operation: string, query: boolean, work: () => Promise<T>): Promise<T> {
    const attributes = query ? { 'gw.operation': 'query' } : { 'gw.operation': operation };
    if (query) this.#instruments.reconcileQueries.add(1, this.#operation);
    this.#instruments.inFlight.add(1, attributes);
    try {
      return await work();
    } finally {
      this.#instruments.inFlight.add(-1, attributes);
    }
  }

  throttled(retryAfterMs: number | null, pace: number | null, letThrough: number): void {
    this.#instruments.throttles.add(1, this.#operation);
    // On the span the throttled request went under (its send, or its reconcile); else the run's.
    const span = this.#api.trace.getActiveSpan() ?? this.#span;
    if (!span.isRecording()) return;
    const attributes: Attributes = { 'gw.batch.let_through': letThrough };
    if (retryAfterMs !== null) attributes['gw.batch.retry_after_ms'] = retryAfterMs;
    if (pace !== null) attributes['gw.batch.pace'] = pace;
    span.addEvent('gw.batch.throttle', attributes);
  }

  end(end: RunEnd): void {
    if (this.#span.isRecording()) {
      const { counts, worker } = end;
      this.#span.setAttributes({
        'gw.batch.succeeded': counts.succeeded,
        'gw.batch.failed': counts.failed,
        'gw.batch.rejected': counts.rejected,
        'gw.batch.unknown': counts.unknown,
        'gw.batch.throttles': end.throttled,
      });
      if (worker)
        this.#span.setAttributes({
          'gw.batch.chunks': worker.chunks,
          'gw.batch.taken_over': worker.takenOver,
          'gw.batch.commits_refused': worker.refused,
          'gw.batch.slots_missed': worker.slotsMissed,
        });
    }
    this.#span.end();
  }

  failed(error: unknown): void {
    endFailed(this.#api, this.#span, error);
  }
}

/** The run span's attributes: what the batch is and the limits it runs with. */
function runAttributes(run: RunDescription): Attributes {
  const attributes: Attributes = {
    'gw.operation': run.operation,
    'gw.batch.role': run.role,
    'gw.batch.store': run.store,
    'gw.batch.holder': run.holder,
    'gw.batch.concurrency': run.concurrency,
    'gw.batch.max_resends': run.maxResends,
    'gw.batch.timeout_ms': run.timeoutMs,
  };
  if (run.batch !== null) attributes['gw.batch.id'] = run.batch;
  if (run.journal !== null) attributes['gw.batch.journal'] = run.journal;
  if (Number.isFinite(run.leaseMs)) attributes['gw.batch.lease_ms'] = run.leaseMs;
  if (run.maxRate !== null) attributes['gw.batch.max_rate'] = run.maxRate;
  if (run.maxInFlight !== null) attributes['gw.batch.max_in_flight'] = run.maxInFlight;
  return attributes;
}
