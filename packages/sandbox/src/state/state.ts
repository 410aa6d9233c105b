import type { NotificationEvent, NotificationKind } from '@gw/notifications';
import { fromMinorUnits } from './money.ts';
import { ObservedMap, type StateChange, type StateListener } from './state-change.ts';

/**
 * Where an order stands in the sandbox's own state machine (UNKNOWNS U28). `pending` is a checkout or
 * alternative-method order waiting for the shopper; `expired` is one the shopper abandoned.
 */
export type OrderState = 'pending' | 'authorised' | 'declined' | 'captured' | 'partially_refunded' | 'refunded' | 'cancelled' | 'expired';

/** One thing that happened to an order, oldest first: what the control API and the console show as its history. */
export interface OrderEvent {
  readonly at: Date;
  /** What happened, e.g. `created`, `authorised`, `declined`, `cancelled`, `expired`, `captured`, `refunded`, `challenge-passed`. */
  readonly event: string;
  /** Who acted: the merchant's API call, the shopper on a sandbox page, the operator (control API, console) or the sandbox's clock. */
  readonly by: 'api' | 'shopper' | 'operator' | 'clock';
  /** A short human-readable detail (an amount, a result_info); never card data. */
  readonly detail?: string;
}

/** One refund the sandbox accepted. */
export interface SandboxRefund {
  readonly referenceId: string;
  readonly reference: string;
  readonly amountMinor: bigint;
  readonly reason: string;
}

/** One payment order as the sandbox keeps it. */
export interface SandboxOrder {
  readonly transactionId: string;
  /**
   * Where the shopper's pages of the order live (`/sandbox/pay/<payToken>`, `/sandbox/3ds/<payToken>`): 128 random bits,
   * base64url, never the transaction id. null for an order without such pages (a card payment without a challenge).
   */
  readonly payToken: string | null;
  readonly orderNo: string;
  readonly merchantId: string;
  readonly accountId: string;
  readonly currency: string;
  readonly amount: string;
  readonly amountMinor: bigint;
  readonly variant: 'card' | 'alternative' | 'checkout';
  state: OrderState;
  capturedMinor: bigint;
  refunds: SandboxRefund[];
  reviewFlag: string | null;
  /** Set when the card is known: at creation for a direct payment, when the shopper pays on the hosted page. */
  maskedCard: string;
  is3ds: boolean;
  riskAction: string;
  riskScore: number;
  resultInfo: string;
  /** `threeds_result` of the payment: '' without 3-D Secure, `CHALLENGE_REQUIRED` while a challenge waits (UNKNOWNS U17). */
  threedsResult: string;
  /** When a pending order expires unpaid (UNKNOWNS U22); null for an order that is not waiting for the shopper. */
  expiresAt: Date | null;
  readonly createdAt: Date;
  readonly record: Readonly<Record<string, unknown>>;
  recurringId: string | null;
  /** Everything that happened to the order, oldest first. */
  readonly history: OrderEvent[];
}

/** A subscription created by a payment that carried `subscription`. */
export interface SandboxSubscription {
  readonly recurringId: string;
  readonly contractName: string;
  readonly transactionId: string;
  readonly merchantId: string;
  readonly accountId: string;
  status: '1' | 'Inactived';
  charges: number;
  /** `<count> <interval>`, as the payment's answer gave it and queries give it. */
  readonly deductionPeriod: string;
  /** The next deduction (`YYYY-MM-DD HH:MM:SS`), as the payment's answer gave it and queries give it; moves on at each charge. */
  deductionTime: string;
}

/** One notification the sandbox tried to deliver, with every attempt. */
export interface NotificationDelivery {
  readonly id: number;
  readonly url: string;
  readonly kind: 'payment' | 'payout';
  readonly key: string;
  /** The event delivered (plain data): the same event, with the same id, in its duplicates and resends. */
  readonly event: NotificationEvent;
  /** The event id, e.g. `evt_1f...`: what a receiver de-duplicates on (UNKNOWNS U44). */
  readonly eventId: string;
  /** The event kind, e.g. `payment.authorised`. */
  readonly eventKind: NotificationKind;
  /** The body and headers of the latest attempt, exactly as POSTed ('' and {} before the first). */
  body: string;
  headers: Record<string, string>;
  /** The delivery this one re-sends (`Notifier.resend`), or null. */
  readonly resendOf: number | null;
  /** Every attempt: when it started, the HTTP status or the connection error. */
  readonly attempts: NotificationAttempt[];
  delivered: boolean;
}

/** One delivery attempt of a notification: the HTTP status, or the error when no answer came. */
export interface NotificationAttempt {
  readonly at: Date;
  readonly status: number | null;
  readonly error: string | null;
}

/** One request the sandbox received (after faults that drop it before processing). */
export interface ReceivedRequest {
  readonly seq: number;
  readonly path: string;
  readonly operation: string | null;
  /** When it was received (its body read), before the route's latency: its arrival as a gateway would stamp it. */
  readonly receivedAt: Date;
  /** When it was answered (a processed request after the route's latency). */
  readonly at: Date;
  readonly processed: boolean;
  readonly outcome: 'ok' | 'refused' | 'invalid' | 'reset-before' | 'http-5xx';
  /** True when it was answered HTTP 429 by the throttle or the `http429` fault (UNKNOWNS U50): its outcome is `refused`, nothing was processed. */
  readonly throttled?: boolean;
}

/** Every money movement the sandbox applied, in order: what a test inspects to prove nothing happened twice. */
export interface LedgerEntry {
  readonly seq: number;
  readonly kind: 'authorise' | 'capture' | 'cancel' | 'refund' | 'review' | 'payout' | 'cancel-subscription';
  readonly key: string;
  readonly amountMinor: bigint;
}

/** How many received requests the log keeps. */
export const REQUEST_LOG_LIMIT = 10_000;

/** The sandbox's whole state: orders, subscriptions, payouts, notifications, and the log of what it received. */
export class SandboxState {
  readonly orders = new Map<string, SandboxOrder>();
  readonly ordersByNo = new Map<string, SandboxOrder>();
  /** Orders with shopper pages, by their pay token. */
  readonly ordersByPayToken = new Map<string, SandboxOrder>();
  readonly subscriptions = new ObservedMap<SandboxSubscription>();
  readonly payouts = new ObservedMap<Readonly<Record<string, unknown>>>();
  /** A digest of the parameters each payout was made with, by the same key as `payouts` (UNKNOWNS U40). */
  readonly payoutParameters = new ObservedMap<string>();
  readonly notifications: NotificationDelivery[] = [];
  readonly requests: ReceivedRequest[] = [];
  readonly ledger: LedgerEntry[] = [];
  /** Exceptions that escaped a handler (a sandbox bug): tests assert this stays empty. */
  readonly internalErrors: string[] = [];

  #requestSeq = 0;
  #notificationSeq = 0;
  #listener: StateListener = () => {};

  /** Tells `listener` of every change from now on (the state store, `stateFile`); one listener at a time. */
  observe(listener: StateListener): void {
    this.#listener = listener;
    this.subscriptions.observe((key) => listener({ kind: 'subscription', key }));
    this.payouts.observe((key) => listener({ kind: 'payout', key }));
    this.payoutParameters.observe((key) => listener({ kind: 'payout', key }));
  }

  /** Tells the listener that an order changed (anything that appends to its history does so already). */
  touchOrder(order: SandboxOrder): void {
    this.#listener({ kind: 'order', key: order.transactionId });
  }

  /** Tells the listener that a subscription changed in place (its status, charges or next deduction). */
  touchSubscription(subscription: SandboxSubscription): void {
    this.#listener({ kind: 'subscription', key: subscription.recurringId });
  }

  /** The id of the next notification: never reused, across resets and (with a state file) restarts. */
  nextNotificationId(): number {
    this.#notificationSeq += 1;
    return this.#notificationSeq;
  }

  /** The last notification id issued. */
  get notificationSeq(): number {
    return this.#notificationSeq;
  }

  /** Restores the notification id sequence from a state file. */
  restoreNotificationSeq(seq: number): void {
    this.#notificationSeq = Math.max(this.#notificationSeq, seq);
  }

  /** Appends a notification to the delivery log. */
  addNotification(delivery: NotificationDelivery): void {
    this.notifications.push(delivery);
    this.#listener({ kind: 'notification', id: delivery.id });
  }

  /** Records one delivery attempt of a notification. */
  addAttempt(delivery: NotificationDelivery, attempt: NotificationAttempt): void {
    delivery.attempts.push(attempt);
    if (attempt.status !== null && attempt.status >= 200 && attempt.status < 300) delivery.delivered = true;
    this.#listener({ kind: 'notification', id: delivery.id });
  }

  /** Empties orders, subscriptions, payouts, notifications, the ledger and the request log; id sequences and internal errors stay. */
  clear(): void {
    this.emptyForReload();
    this.requests.length = 0;
    this.#listener({ kind: 'reset' });
  }

  /** Empties what a state file holds, telling no listener: before a state store reads its file back (a write undone). */
  emptyForReload(): void {
    this.orders.clear();
    this.ordersByNo.clear();
    this.ordersByPayToken.clear();
    this.subscriptions.clear();
    this.payouts.clear();
    this.payoutParameters.clear();
    this.notifications.length = 0;
    this.ledger.length = 0;
  }

  /** Appends to the request log, which keeps about the last REQUEST_LOG_LIMIT requests so a long-running sandbox stays small. */
  logRequest(entry: Omit<ReceivedRequest, 'seq'>): void {
    this.#requestSeq += 1;
    // Built member by member, not spread: one request log entry per request.
    this.requests.push({
      seq: this.#requestSeq,
      path: entry.path,
      operation: entry.operation,
      receivedAt: entry.receivedAt,
      at: entry.at,
      processed: entry.processed,
      outcome: entry.outcome,
      throttled: entry.throttled === true,
    });
    // Trimmed in steps of a tenth, not one entry at a time: a splice per request would cost O(limit) each.
    if (this.requests.length > REQUEST_LOG_LIMIT * 1.1) this.requests.splice(0, this.requests.length - REQUEST_LOG_LIMIT);
  }

  /** How many requests were received in all (the log keeps only the last ones). */
  get requestCount(): number {
    return this.#requestSeq;
  }

  /** Finds an order by transaction id and/or order number; both, when given, must name the same order. */
  findOrder(merchantId: string, transactionId: unknown, orderNo: unknown): SandboxOrder | undefined {
    const byId = typeof transactionId === 'string' && transactionId ? this.orders.get(transactionId) : undefined;
    const withNo = typeof orderNo === 'string' && orderNo !== '';
    // An order found by its id that has the order_no given is the one the order_no index holds for it (an invariant
    // invariantViolations checks): that index is read only when the id finds no order.
    if (byId) return byId.merchantId === merchantId && (!withNo || byId.orderNo === orderNo) ? byId : undefined;
    const byNo = withNo ? this.ordersByNo.get(`${merchantId}\u0000${orderNo}`) : undefined;
    return byNo?.merchantId === merchantId ? byNo : undefined;
  }

  /** Adds an order to its indexes. */
  addOrder(order: SandboxOrder): void {
    this.orders.set(order.transactionId, order);
    this.ordersByNo.set(`${order.merchantId}\u0000${order.orderNo}`, order);
    if (order.payToken !== null) this.ordersByPayToken.set(order.payToken, order);
    this.#listener({ kind: 'order', key: order.transactionId });
  }

  /** Appends an event to an order's history. */
  addEvent(order: SandboxOrder, event: string, by: OrderEvent['by'], at: Date, detail?: string): void {
    order.history.push(detail === undefined ? { at, event, by } : { at, event, by, detail });
    this.#listener({ kind: 'order', key: order.transactionId });
  }

  /** Records a money movement. */
  record(kind: LedgerEntry['kind'], key: string, amountMinor = 0n): void {
    this.ledger.push({ seq: (this.ledger.at(-1)?.seq ?? 0) + 1, kind, key, amountMinor });
    this.#listener({ kind: 'ledger' });
    if (kind === 'cancel-subscription') this.#listener({ kind: 'subscription', key });
  }

  /** How many times each key was applied for a kind: a value above 1 is a doubled capture, refund or payout. */
  appliedCounts(kind: LedgerEntry['kind']): Map<string, number> {
    const counts = new Map<string, number>();
    for (const entry of this.ledger) if (entry.kind === kind) counts.set(entry.key, (counts.get(entry.key) ?? 0) + 1);
    return counts;
  }

  /** Refunded total of an order in minor units. */
  refundedMinor(order: SandboxOrder): bigint {
    return order.refunds.reduce((sum, r) => sum + r.amountMinor, 0n);
  }

  /** Every broken invariant of the state (empty when consistent): what fuzz and fault tests assert. */
  invariantViolations(): string[] {
    const problems: string[] = [];
    for (const order of this.orders.values()) {
      const refunded = this.refundedMinor(order);
      if (refunded > order.capturedMinor)
        problems.push(`${order.transactionId}: refunded ${fromMinorUnits(refunded)} > captured ${fromMinorUnits(order.capturedMinor)}`);
      if (order.capturedMinor > order.amountMinor) problems.push(`${order.transactionId}: captured more than the order amount`);
      if (order.state === 'cancelled' && order.capturedMinor > 0n) problems.push(`${order.transactionId}: cancelled after capture`);
      if ((order.state === 'authorised' || order.state === 'declined' || order.state === 'cancelled') && order.capturedMinor !== 0n) {
        problems.push(`${order.transactionId}: ${order.state} with a capture`);
      }
      if (this.ordersByNo.get(`${order.merchantId}\u0000${order.orderNo}`) !== order) problems.push(`${order.transactionId}: order_no index out of step`);
    }
    for (const [key, count] of this.appliedCounts('capture')) if (count > 1) problems.push(`${key}: captured ${count} times`);
    for (const [key, count] of this.appliedCounts('payout')) if (count > 1) problems.push(`${key}: paid out ${count} times`);
    return problems;
  }
}
