import { DEFAULT_CALL_TIMEOUT_MS } from '@gw/types';

/**
 * Where a setting applies: to every batch, or only to one kept in a PostgreSQL ledger (a journal's run is its only
 * holder: it leases nothing, polls nobody), or only to `runBatchWorker`.
 */
export type SettingScope = 'any' | 'ledger' | 'worker';

/** One numeric setting of a batch: its default, its least value, where it applies, its `gw batch` flag, what it does. */
export interface NumericSetting {
  readonly name:
    | 'concurrency'
    | 'maxResends'
    | 'timeoutMs'
    | 'sendMarginMs'
    | 'maxRate'
    | 'maxInFlight'
    | 'maxThrottleWaitMs'
    | 'leaseMs'
    | 'pollMs'
    | 'ledgerOutageMs'
    | 'batchWaitMs';
  /** Null: no limit unless one is given. */
  readonly default: number | null;
  readonly least: number;
  /** `ms`: a duration in milliseconds; `count`: a whole number of things. */
  readonly unit: 'ms' | 'count';
  readonly scope: SettingScope;
  /** The `gw batch` flag that sets it (`--timeout-ms` is one of gw's gateway flags, shared with `gw call`). */
  readonly flag: string;
  /** What it does, in one line: the options table of the README and `gw batch --help` read it. */
  readonly doc: string;
}

/**
 * Every numeric setting of a batch, with its default: the one table `resolveBatchSettings` fills and checks them from,
 * and which the README's options table and `gw batch --help` are written from. A lease outlives a request with its
 * margin (60 s > 30 s + 5 s), so a healthy worker sends with ~40 s of lease left, and a worker that died has its chunks
 * taken over after at most 60 s and queried 35 s later.
 */
export const BATCH_SETTINGS: readonly NumericSetting[] = [
  {
    name: 'concurrency',
    default: 4,
    least: 1,
    unit: 'count',
    scope: 'any',
    flag: '--concurrency',
    doc: 'requests in flight at once, a sliding window (UNKNOWNS U50)',
  },
  {
    name: 'maxResends',
    default: 2,
    least: 0,
    unit: 'count',
    scope: 'any',
    flag: '--max-resends',
    doc: 'times an order a query shows not applied, after an unanswered request, is sent again',
  },
  {
    name: 'timeoutMs',
    default: DEFAULT_CALL_TIMEOUT_MS,
    least: 1,
    unit: 'ms',
    scope: 'any',
    flag: '--timeout-ms',
    doc: "each request's time limit, passed with every call (instead of the client's own)",
  },
  {
    name: 'sendMarginMs',
    default: 5_000,
    least: 0,
    unit: 'ms',
    scope: 'any',
    flag: '--send-margin-ms',
    doc: 'orders of a request that timed out are queried this long after the call gave up; with a ledger, a chunk is sent only while its lease has this long left',
  },
  {
    name: 'maxRate',
    default: null,
    least: 1,
    unit: 'count',
    scope: 'any',
    flag: '--max-rate',
    doc: 'requests per second the whole batch sends at most (every process of a ledger batch together), never exceeded; none by default',
  },
  {
    name: 'maxInFlight',
    default: null,
    least: 1,
    unit: 'count',
    scope: 'any',
    flag: '--max-in-flight',
    doc: 'requests the whole batch has in flight at most (every process of a ledger batch together), never exceeded; none by default',
  },
  {
    name: 'maxThrottleWaitMs',
    default: 60_000,
    least: 0,
    unit: 'ms',
    scope: 'any',
    flag: '--max-throttle-wait-ms',
    doc: 'the longest the batch waits out a gateway that throttles it (one Retry-After, or throttles with no request let through); past it the batch stops, to be resumed',
  },
  {
    name: 'leaseMs',
    default: 60_000,
    least: 10,
    unit: 'ms',
    scope: 'ledger',
    flag: '--lease-ms',
    doc: "how long a worker's lease on a chunk lasts unless renewed (every third of it); longer than timeoutMs + sendMarginMs",
  },
  {
    name: 'pollMs',
    default: 200,
    least: 1,
    unit: 'ms',
    scope: 'ledger',
    flag: '--poll-ms',
    doc: 'how long a worker with idle slots waits before looking for chunks again, when no notification wakes it first',
  },
  {
    name: 'ledgerOutageMs',
    default: 30_000,
    least: 0,
    unit: 'ms',
    scope: 'ledger',
    flag: '--ledger-outage-ms',
    doc: 'how long a worker rides out an unreachable ledger, sending nothing new, before it stops for a resume',
  },
  {
    name: 'batchWaitMs',
    default: 30_000,
    least: 0,
    unit: 'ms',
    scope: 'worker',
    flag: '--batch-wait-ms',
    doc: 'how long a worker started before its batch exists waits for it',
  },
];

/** The settings that are no limit unless given (their default is null). */
export type LimitName = 'maxRate' | 'maxInFlight';

/** Every default, by name (null: no limit). */
export const BATCH_DEFAULTS = Object.fromEntries(BATCH_SETTINGS.map((s) => [s.name, s.default])) as {
  readonly [K in Exclude<NumericSetting['name'], LimitName>]: number;
} & { readonly [K in LimitName]: null };

/** The table as the README shows it (between its `batch-settings` markers). */
export function settingsTableMarkdown(): string {
  const scope = { any: 'every batch', ledger: 'a ledger', worker: '`runBatchWorker`' } as const;
  const value = (s: NumericSetting) => (s.default === null ? 'none' : s.unit === 'ms' ? `${s.default.toLocaleString('en')} ms` : String(s.default));
  return [
    '| option | `gw batch` flag | default | applies to | what it does |',
    '|---|---|---:|---|---|',
    ...BATCH_SETTINGS.map((s) => `| \`${s.name}\` | \`${s.flag}\` | ${value(s)} | ${scope[s.scope]} | ${s.doc} |`),
  ].join('\n');
}
