import type { Attributes, Counter, Histogram, Meter, UpDownCounter } from '@opentelemetry/api';
import type { OutcomeKind } from '../outcome.ts';

/** Bucket bounds of the ledger's statement time (seconds): a fraction of a millisecond to seconds. */
const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The batch's instruments, made once per meter provider registered. */
export interface BatchInstruments {
  readonly orders: Counter;
  readonly inFlight: UpDownCounter;
  readonly takenOver: Counter;
  readonly reconcileQueries: Counter;
  readonly throttles: Counter;
  readonly statementDuration: Histogram;
}

/** The batch's instruments from `meter` (the meter provider's `@gw/batch` meter). */
export function makeInstruments(meter: Meter): BatchInstruments {
  return {
    orders: meter.createCounter('gw.batch.orders', { unit: '{order}', description: 'Input orders given their final outcome, by outcome' }),
    inFlight: meter.createUpDownCounter('gw.batch.requests.in_flight', {
      unit: '{request}',
      description: 'Requests of the batch (sends and reconcile queries) in flight',
    }),
    takenOver: meter.createCounter('gw.batch.chunks.taken_over', {
      unit: '{chunk}',
      description: 'Chunks taken over from an earlier holder (queried, never sent blindly)',
    }),
    reconcileQueries: meter.createCounter('gw.batch.reconcile.queries', {
      unit: '{request}',
      description: 'Queries made to settle orders whose request got no trustworthy answer',
    }),
    throttles: meter.createCounter('gw.batch.throttles', { unit: '{request}', description: 'Requests the gateway throttled' }),
    statementDuration: meter.createHistogram('gw.batch.ledger.statement.duration', {
      unit: 's',
      description: 'Time of each ledger statement, by statement',
      advice: { explicitBucketBoundaries: STATEMENT_BUCKETS },
    }),
  };
}

/** The four outcome attribute sets of an operation, made once per run (nothing built per order). */
export function outcomeAttributes(operation: string): Readonly<Record<OutcomeKind, Attributes>> {
  return {
    succeeded: { 'gw.operation': operation, 'gw.outcome': 'succeeded' },
    failed: { 'gw.operation': operation, 'gw.outcome': 'failed' },
    rejected: { 'gw.operation': operation, 'gw.outcome': 'rejected' },
    unknown: { 'gw.operation': operation, 'gw.outcome': 'unknown' },
  };
}
