import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { ClaimedChunk } from '../store/chunk-store.ts';
import type { BatchInstruments } from './batch-metrics.ts';
import { endFailed, inChild } from './spans.ts';

/** One chunk's span and its children (send, settle, reconcile), and its takeover event. */
export interface ChunkTelemetry {
  /** Runs the chunk's work inside its span's context. */
  within<T>(work: () => Promise<T>): Promise<T>;
  /** The send, inside a `gw.batch.send` span (the client's span comes out under it); `after` names what came back. */
  send<T>(work: () => Promise<T>, after: (result: T) => Attributes): Promise<T>;
  /** Deciding the orders after the send (recording those in doubt), inside a `gw.batch.settle` span. */
  settle<T>(attributes: () => Attributes, work: () => Promise<T>): Promise<T>;
  /** Querying the orders in doubt, inside a `gw.batch.reconcile` span (the queries under it). */
  reconcile<T extends { readonly outcomes: readonly unknown[]; readonly resend: readonly unknown[] }>(orders: number, work: () => Promise<T>): Promise<T>;
  /** The chunk was taken over from an earlier holder (an event, and the counter). */
  takenOver(quietWaitMs: number, sentBefore: boolean): void;
  /** Ends the span: `how` the chunk ended (settled, unsent, lost), with `attributes` (built only when it records). */
  end(how: string, attributes?: () => Attributes): void;
  failed(error: unknown): void;
}

/** A chunk's telemetry that does nothing (no OpenTelemetry API). */
export const NOOP_CHUNK: ChunkTelemetry = {
  within: (work) => work(),
  send: (work) => work(),
  settle: (_attributes, work) => work(),
  reconcile: (_orders, work) => work(),
  takenOver: () => {},
  end: () => {},
  failed: () => {},
};

/** One chunk's span, a child of the run's. */
export class TracedChunk implements ChunkTelemetry {
  readonly #api: typeof OtelApi;
  readonly #tracer: Tracer;
  readonly #instruments: BatchInstruments;
  readonly #operation: Attributes;
  readonly #span: Span;
  readonly #context: Context;
  readonly #orders: number;

  constructor(api: typeof OtelApi, tracer: Tracer, parent: Context, instruments: BatchInstruments, operation: Attributes, claimed: ClaimedChunk) {
    this.#api = api;
    this.#tracer = tracer;
    this.#instruments = instruments;
    this.#operation = operation;
    this.#orders = claimed.orders.length;
    this.#span = tracer.startSpan('gw.batch.chunk', { kind: api.SpanKind.INTERNAL }, parent);
    if (this.#span.isRecording())
      this.#span.setAttributes({
        ...operation,
        'gw.batch.chunk': claimed.chunk,
        'gw.orders': claimed.orders.length,
        'gw.batch.fence': claimed.fence,
        'gw.batch.taken_over': claimed.takenOver,
      });
    this.#context = api.trace.setSpan(parent, this.#span);
  }

  within<T>(work: () => Promise<T>): Promise<T> {
    return this.#api.context.with(this.#context, work);
  }

  send<T>(work: () => Promise<T>, after: (result: T) => Attributes): Promise<T> {
    return inChild(this.#api, this.#tracer, this.#context, 'gw.batch.send', () => ({ ...this.#operation, 'gw.orders': this.#orders }), work, after);
  }

  settle<T>(attributes: () => Attributes, work: () => Promise<T>): Promise<T> {
    return inChild(this.#api, this.#tracer, this.#context, 'gw.batch.settle', attributes, work);
  }

  reconcile<T extends { readonly outcomes: readonly unknown[]; readonly resend: readonly unknown[] }>(orders: number, work: () => Promise<T>): Promise<T> {
    const after = (r: T): Attributes => ({ 'gw.batch.settled': r.outcomes.length, 'gw.batch.resend': r.resend.length });
    return inChild(this.#api, this.#tracer, this.#context, 'gw.batch.reconcile', () => ({ ...this.#operation, 'gw.orders': orders }), work, after);
  }

  takenOver(quietWaitMs: number, sentBefore: boolean): void {
    this.#instruments.takenOver.add(1, this.#operation);
    if (this.#span.isRecording())
      this.#span.addEvent('gw.batch.takeover', { 'gw.batch.quiet_wait_ms': Math.max(0, quietWaitMs), 'gw.batch.sent_before': sentBefore });
  }

  end(how: string, attributes?: () => Attributes): void {
    if (this.#span.isRecording()) this.#span.setAttributes({ ...attributes?.(), 'gw.batch.chunk.end': how });
    this.#span.end();
  }

  failed(error: unknown): void {
    endFailed(this.#api, this.#span, error);
  }
}
