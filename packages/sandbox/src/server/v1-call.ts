import type { IncomingMessage } from 'node:http';
import type { OperationSpec, RequestEncoding } from '@gw/types';
import type { WireRecord } from '../wire/wire-record.ts';
import type { ReceivedRequest } from '../state/state.ts';
import type { AccountQuota } from '../throttle/account-quota.ts';
import type { SandboxParts } from './sandbox-parts.ts';

const NO_RECORD: WireRecord = Object.freeze({});

/** A /v1 request as its steps see it: what the decode step read from it, and whether its handler changed the state. */
export class V1Call {
  readonly req: IncomingMessage;
  readonly path: string;
  /** When its body was read: before the route's latency and any step. */
  readonly receivedAt: Date;
  /** The operations served at the path (authorise has two variants). */
  readonly variants: readonly OperationSpec[];
  /** True when a `duplicate-notification` fault makes each notification of this request go twice. */
  readonly duplicateNotification: boolean;
  /** The operation: the path's first variant until the decode step picks the one the record is. */
  op: OperationSpec;
  /** True once the record was read from the body (by the throttle step, or else the decode step). */
  decoded = false;
  /** The decoded body (empty until the decode step). */
  record: WireRecord = NO_RECORD;
  /** How the body was read: a body-based signature covers it in that encoding. */
  encoding: RequestEncoding;
  merchantId = '';
  accountId = '';
  /** The state's change count before the handler ran when the request changed the state; else null. */
  changedAfter: number | null = null;
  /** The merchant account whose quota this request holds a place in until it is answered (throttle on); else null. */
  quota: AccountQuota | null = null;

  constructor(req: IncomingMessage, path: string, receivedAt: Date, variants: readonly OperationSpec[], duplicateNotification: boolean) {
    this.req = req;
    this.path = path;
    this.receivedAt = receivedAt;
    this.variants = variants;
    this.duplicateNotification = duplicateNotification;
    this.op = variants[0]!;
    this.encoding = this.op.requestEncoding;
  }

  /** The request was answered (or its connection reset): gives back its place in its account's quota, once. */
  answered(): void {
    const quota = this.quota;
    if (quota === null) return;
    this.quota = null;
    quota.answered();
  }
}

/** Adds a request to the state's request log, answered now (`throttled`: it was answered HTTP 429). */
export function logRequest(
  parts: SandboxParts,
  call: V1Call,
  operation: string | null,
  processed: boolean,
  outcome: ReceivedRequest['outcome'],
  throttled = false,
): void {
  parts.state.logRequest({ path: call.path, operation, receivedAt: call.receivedAt, at: parts.clock(), processed, outcome, throttled });
}
