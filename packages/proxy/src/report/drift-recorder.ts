import type { RequestPace } from '../check/exchange.ts';
import type { Throttle } from '../check/throttle.ts';
import { redactFinding, reportText, reportValue } from '../redact/report-redaction.ts';
import type { CountRange, DriftEntry, DriftKind, DriftReport, DriftSide, OperationObservations } from './report-types.ts';

/** Bounds that keep a long-running proxy's report small whatever the traffic. */
const MAX_DRIFT_ENTRIES = 2000;
const MAX_PLACES_PER_OPERATION = 2000;
const MAX_VALUES_PER_PLACE = 100;
/** Where values past MAX_VALUES_PER_PLACE are counted. */
export const OTHER_VALUES = '(other values)';

/** A field path: `path.name`, or `name` at the top. */
export function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

/** A drift finding before it is counted. */
export interface DriftFinding {
  readonly operation: string;
  readonly side: DriftSide;
  readonly kind: DriftKind;
  readonly path: string;
  readonly message: string;
  readonly example: string;
  readonly seenType: string | null;
}

function bump(counts: Record<string, number>, key: string, limit = Infinity): void {
  if (Object.hasOwn(counts, key)) counts[key]! += 1;
  else if (Object.keys(counts).length < limit) counts[key] = 1;
  else counts[OTHER_VALUES] = (counts[OTHER_VALUES] ?? 0) + 1;
}

function widen(range: CountRange, value: number): void {
  range.min = Math.min(range.min, value);
  range.max = Math.max(range.max, value);
}

/**
 * Collects drift (one entry per operation, side, kind and place, counted) and observations, in bounded memory. Every
 * text it is given passes the report redaction (`redact/report-redaction.ts`) before it is kept: no card data in a report.
 */
export class DriftRecorder {
  readonly report: DriftReport;
  readonly #entries = new Map<string, DriftEntry>();
  #now: () => Date;
  readonly #children = new Map<string, Set<string>>();
  readonly #records = new Map<string, number>();
  /** Told of each finding (redacted) while set: the exchange being checked, for its telemetry; else null. */
  onFinding: ((finding: DriftFinding) => void) | null = null;

  constructor(upstream: string, signaturesChecked: boolean, now: () => Date = () => new Date()) {
    this.#now = now;
    const at = now().toISOString();
    this.report = {
      type: 'gw-drift-report',
      version: 1,
      upstream: reportText(upstream),
      startedAt: at,
      updatedAt: at,
      signaturesChecked,
      exchanges: 0,
      unchecked: 0,
      deadlines: 0,
      drift: [],
      observations: {},
    };
  }

  /** Counts one exchange; `checked` false when its bodies were too large to check. */
  exchange(checked: boolean): void {
    this.report.exchanges += 1;
    if (!checked) this.report.unchecked += 1;
    this.report.updatedAt = this.#now().toISOString();
  }

  /** Counts an exchange given up at the whole-answer deadline (not drift). */
  deadline(): void {
    this.report.deadlines = (this.report.deadlines ?? 0) + 1;
    this.report.updatedAt = this.#now().toISOString();
  }

  /** Records a finding: a new entry the first time, else one more on its count. */
  drift(raw: DriftFinding): void {
    const finding = redactFinding(raw);
    this.onFinding?.(finding);
    const key = `${finding.operation}|${finding.side}|${finding.kind}|${finding.path}`;
    const at = this.#now().toISOString();
    const entry = this.#entries.get(key);
    if (entry) {
      entry.count += 1;
      entry.lastSeen = at;
      return;
    }
    if (this.#entries.size >= MAX_DRIFT_ENTRIES) return;
    const created: DriftEntry = { ...finding, count: 1, firstSeen: at, lastSeen: at };
    this.#entries.set(key, created);
    this.report.drift.push(created);
  }

  /** The observations of one operation, created on first use. */
  observations(raw: string): OperationObservations {
    const operation = reportText(raw);
    let seen = this.report.observations[operation];
    if (!seen) this.report.observations[operation] = seen = { answers: 0, statuses: {}, contentTypes: {}, requestForms: {}, fields: {}, values: {} };
    return seen;
  }

  /** Counts an answer's status and content type. */
  answerSeen(operation: string, status: number, contentType: string): void {
    const seen = this.observations(operation);
    bump(seen.statuses, String(status), MAX_VALUES_PER_PLACE);
    bump(seen.contentTypes, reportText(contentType) || '(none)', MAX_VALUES_PER_PLACE);
  }

  /** Counts a request's wire form. */
  requestFormSeen(operation: string, form: string): void {
    bump(this.observations(operation).requestForms, form);
  }

  /**
   * Counts one record at place `path` of an answer (`''` for the whole answer) with its member names, for "which fields
   * are always present" (UNKNOWNS U05). Returns the names every earlier record there carried and this one does not.
   */
  recordSeen(operation: string, rawPath: string, rawNames: readonly string[]): string[] {
    const path = reportText(rawPath);
    const names = rawNames.map(reportText);
    const fields = this.observations(operation).fields;
    const key = `${operation}|${path}`;
    const children = this.#children.get(key) ?? new Set<string>();
    this.#children.set(key, children);
    const before = this.#records.get(key) ?? 0;
    this.#records.set(key, before + 1);
    const here = new Set(names);
    const missing: string[] = [];
    for (const name of names) {
      if (children.has(name) || Object.keys(fields).length >= MAX_PLACES_PER_OPERATION) continue;
      children.add(name);
      fields[join(path, name)] = { places: before, present: 0 };
    }
    for (const name of children) {
      const place = fields[join(path, name)]!;
      if (!here.has(name) && before > 0 && place.present === before && place.places === before) missing.push(name);
      place.places += 1;
      if (here.has(name)) place.present += 1;
    }
    return missing;
  }

  /** Counts a throttle (UNKNOWNS U50): its status, the wait it asked for, and the pace its request started at. */
  throttleSeen(operation: string, throttle: Throttle, pace: RequestPace): void {
    const at = this.#now().toISOString();
    const seen = this.observations(operation);
    const throttles = (seen.throttles ??= {
      count: 0,
      statuses: {},
      firstSeen: at,
      lastSeen: at,
      retryAfterMs: { count: 0, min: null, max: null, values: {}, absent: 0, unreadable: 0 },
      requestsInSecondBefore: { operation: { min: pace.operation, max: pace.operation }, all: { min: pace.all, max: pace.all } },
    });
    throttles.count += 1;
    throttles.lastSeen = at;
    bump(throttles.statuses, String(throttle.status), MAX_VALUES_PER_PLACE);
    const wait = throttles.retryAfterMs;
    if (throttle.retryAfter === 'absent') wait.absent += 1;
    // A wait whose digits may be a card number is not shown: counted as unreadable.
    else if (throttle.retryAfter === 'unreadable' || reportText(String(throttle.retryAfter.ms)) !== String(throttle.retryAfter.ms)) wait.unreadable += 1;
    else {
      const { ms } = throttle.retryAfter;
      wait.count += 1;
      wait.min = Math.min(wait.min ?? ms, ms);
      wait.max = Math.max(wait.max ?? ms, ms);
      bump(wait.values, String(ms), MAX_VALUES_PER_PLACE);
    }
    widen(throttles.requestsInSecondBefore.operation, pace.operation);
    widen(throttles.requestsInSecondBefore.all, pace.all);
  }

  /** Counts a value seen at a place with known values or a status. */
  valueSeen(operation: string, rawPath: string, unknowns: string, value: string): void {
    const path = reportText(rawPath);
    const values = this.observations(operation).values;
    const place = (values[path] ??= { unknowns, counts: {} });
    bump(place.counts, reportValue(rawPath, value), MAX_VALUES_PER_PLACE);
  }
}
