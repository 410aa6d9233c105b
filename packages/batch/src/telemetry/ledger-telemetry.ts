import {
  INTAKE,
  INTAKE_LEASE,
  INTAKE_RELEASE,
  INTAKE_UNCLAIMED,
  MARK_SENT,
  NAME_CONFLICTS,
  ORDERS_AT,
  PACE_REPORT,
  RECORDED_INPUT,
  RELEASE,
  RENEW,
  SEAL,
  SET_LIMITS,
  STATUS,
  STEP,
} from '../postgres/statements.ts';
import { activeSpan, batchTelemetryNow } from './otel-api.ts';

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

/** Attribute sets by statement name, made once each. */
const ATTRIBUTES = new Map<string, { readonly 'gw.batch.statement': string }>();

/** Statement `text` (named `name` when it is none of the ledger's constants) took `ms`: the `gw.batch.ledger.statement.duration` histogram. */
export function statementTimed(text: string, ms: number, name?: string): void {
  const now = batchTelemetryNow();
  if (!now) return;
  const statement = STATEMENT_NAMES.get(text) ?? name ?? 'other';
  let attributes = ATTRIBUTES.get(statement);
  if (!attributes) ATTRIBUTES.set(statement, (attributes = { 'gw.batch.statement': statement }));
  now.instruments.statementDuration.record(ms / 1000, attributes);
}

/** A ledger out of reach: an event `gw.batch.outage_wait` on the span waiting for it (the step, the chunk or the run). */
export function outageWaited(delayMs: number, downMs: number, reason: string): void {
  const span = activeSpan();
  if (span?.isRecording())
    span.addEvent('gw.batch.outage_wait', { 'gw.batch.wait_ms': delayMs, 'gw.batch.down_ms': Math.round(downMs), 'gw.batch.reason': reason });
}
