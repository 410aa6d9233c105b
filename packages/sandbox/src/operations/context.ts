import type { IdSource } from '../state/ids.ts';
import type { SandboxNotifyKind } from '../notifications/event-kind.ts';
import type { SandboxState } from '../state/state.ts';
import type { WireRecord } from '../wire/wire-record.ts';

/**
 * Signs `record` as the answer of `operation` and queues it as a notification to `url` (nothing for an absent URL): the
 * sandbox-level way to notify from outside a request (a shopper's page, the operator, the clock).
 */
export type SandboxNotify = (kind: SandboxNotifyKind, url: unknown, key: string, record: WireRecord, operation: string, copies?: number) => void;

/** What an operation handler may use: the state, the clock, identifiers, and where to send notifications. */
export interface HandlerContext {
  readonly state: SandboxState;
  readonly clock: () => Date;
  readonly ids: IdSource;
  readonly merchantId: string;
  readonly accountId: string;
  readonly remoteAddress: string;
  readonly baseUrl: string;
  /** How long a new redirect payment waits for the shopper (option `redirectExpiryMs`). */
  readonly redirectExpiryMs: number;
  /** Queues a signed notification of `record` to `url` (UNKNOWNS U44, U45). */
  notify(kind: SandboxNotifyKind, url: unknown, key: string, record: WireRecord): void;
}
