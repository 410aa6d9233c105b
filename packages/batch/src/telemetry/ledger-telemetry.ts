import { INTAKE, INTAKE_LEASE, INTAKE_RELEASE, INTAKE_UNCLAIMED, MARK_SENT, NAME_CONFLICTS, ORDERS_AT, PACE_REPORT, RECORDED_INPUT, RELEASE, RENEW, SEAL, SET_LIMITS, STATUS, STEP } from '../postgres/statements.ts';
import { batchInstruments } from './batch-metrics.ts';
import { otelApi } from './otel-api.ts';

/** The ledger's statements by name (the `gw.batch.statement` attribute of their duration). */
const STATEMENT_NAMES = new Map<string, string>([
  [STEP, 'step'],
  [INTAKE, 'intake'],
  [INTAKE_UNCLAIMED, 'intake'],
  [NAME_CONFLICTS, 'name_conflicts'],
  [RENEW, 'renew'],
  [RELEASE, 'release'],
  [MARK_SENT, 'mark_sent'],
  [STATUS, 'status'],
  [SEAL, 'seal'],
  [RECORDED_INPUT, 'recorded_input'],
  [ORDERS_AT, 'orders_at'],
  [PACE_REPORT, 'pace_report'],
  [SET_LIMITS, 'set_limits'],
  [INTAKE_LEASE, 'intake_lease'],
  [INTAKE_RELEASE, 'intake_release'],
]);

/** Times the ledger's statements (the `gw.batch.ledger.statement.duration` histogram). */
export interface LedgerTelemetry {
  /** Statement `text` (named `name` when it is none of the ledger's constants) took `ms`. */
  statement(text: string, ms: number, name?: string): void;
}

const NOOP_LEDGER: LedgerTelemetry = { statement: () => {} };

/** The ledger's statement timer, from the meter provider registered when the ledger opens; a no-op without the API. */
export function ledgerTelemetry(): LedgerTelemetry {
  const instruments = batchInstruments();
  if (!instruments) return NOOP_LEDGER;
  const attributes = new Map<string, { 'gw.batch.statement': string }>();
  return {
    statement(text, ms, name) {
      const statement = STATEMENT_NAMES.get(text) ?? name ?? 'other';
      let set = attributes.get(statement);
      if (!set) attributes.set(statement, (set = { 'gw.batch.statement': statement }));
      instruments.statementDuration.record(ms / 1000, set);
    },
  };
}

/** A ledger out of reach: an event `gw.batch.outage_wait` on the span waiting for it (the step, the chunk or the run). */
export function outageWaited(delayMs: number, downMs: number, reason: string): void {
  const span = otelApi()?.trace.getActiveSpan();
  if (span?.isRecording()) span.addEvent('gw.batch.outage_wait', { 'gw.batch.wait_ms': delayMs, 'gw.batch.down_ms': Math.round(downMs), 'gw.batch.reason': reason });
}
