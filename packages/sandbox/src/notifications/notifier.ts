import {
  createNotificationEvent,
  encodeGwNotification,
  isNotificationKind,
  isNotifyingOperation,
  NOTIFICATION_KINDS,
  type NotificationEncoder,
  type NotificationEvent,
  type NotificationKind,
} from '@gw/notifications';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { Signer } from '@gw/signer-interface';
import { withoutCardData } from '../cards/card-data.ts';
import type { WireRecord } from '../wire/wire-record.ts';
import { eventKindOf, type SandboxNotifyKind } from './event-kind.ts';
import { readAtMost } from './read-at-most.ts';
import type { NotificationDelivery, SandboxState } from '../state/state.ts';

/** How notifications are encoded, signed and retried (UNKNOWNS U44, U45, U46). */
export interface NotifyOptions {
  /** Attempts in all, the first included. Default 5. */
  readonly attempts?: number;
  /** Delay before the second attempt; doubles each time. Default 200 ms. */
  readonly baseDelayMs?: number;
  /** Time allowed for one attempt. Default 2000 ms. */
  readonly timeoutMs?: number;
  /** How much of an endpoint's answer body is read; the rest is discarded unread (UNKNOWNS U51). Default 64 KiB. */
  readonly maxAnswerBytes?: number;
  /**
   * Turns an event into body and headers, signed with the sandbox's signer, once per attempt. Default: the gw JSON
   * envelope with a `gw-signature` header (`encodeGwNotification` from @gw/notifications). Replace it to match your
   * gateway's format.
   */
  readonly encode?: NotificationEncoder;
  /**
   * The time each attempt is signed at. Default the real time, not the sandbox clock: the receiver checks it against
   * its own clock, and an advanced sandbox clock must not make notifications stale.
   */
  readonly signingClock?: () => Date;
  /**
   * The event kinds sent; a state change of another kind is not notified (e.g. only the kinds a receiver built with an
   * older @gw/notifications knows). Default every kind of envelope version 1 (UNKNOWNS U44).
   */
  readonly kinds?: readonly NotificationKind[];
}

/** The kinds to send, checked: an unknown kind is refused at start (`GW_CONFIG`). */
function kindsToSend(kinds: readonly NotificationKind[] | undefined): ReadonlySet<NotificationKind> {
  if (kinds === undefined) return new Set(NOTIFICATION_KINDS);
  const unknown = Array.isArray(kinds) ? kinds.filter((k) => !isNotificationKind(k)) : ['(not an array)'];
  if (unknown.length > 0)
    throw new GwError(
      GW_ERROR_CODES.config,
      `notify.kinds: ${unknown.map(String).join(', ')} is not a notification kind; the kinds are ${NOTIFICATION_KINDS.join(', ')}.`,
      { unknown },
    );
  return new Set(kinds);
}

/** What `Notifier.send` delivers: the result record of `operation`, to `url`. */
export interface NotificationRequest {
  readonly kind: SandboxNotifyKind;
  readonly url: unknown;
  /** The order or payout the event is about (a transaction id). */
  readonly key: string;
  readonly record: WireRecord;
  readonly operation: string;
  /** Deliveries of this one event: 2 under the duplicate-notification fault. Default 1. */
  readonly copies?: number;
}

/** Builds, signs and delivers notifications with bounded exponential backoff; keeps every attempt in the state. */
export class Notifier {
  readonly #state: SandboxState;
  readonly #signer: Signer;
  readonly #options: Required<Omit<NotifyOptions, 'kinds'>>;
  readonly #kinds: ReadonlySet<NotificationKind>;
  readonly #clock: () => Date;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<AbortController>();
  #pending = 0;
  #stopped = false;
  #generation = 0;

  constructor(state: SandboxState, clock: () => Date, signer: Signer, options: NotifyOptions = {}) {
    this.#state = state;
    this.#clock = clock;
    this.#signer = signer;
    this.#options = {
      attempts: options.attempts ?? 5,
      baseDelayMs: options.baseDelayMs ?? 200,
      timeoutMs: options.timeoutMs ?? 2000,
      maxAnswerBytes: options.maxAnswerBytes ?? 64 * 1024,
      encode: options.encode ?? encodeGwNotification,
      signingClock: options.signingClock ?? (() => new Date()),
    };
    this.#kinds = kindsToSend(options.kinds);
  }

  /** Makes one event of a result and queues its deliveries; nothing for an absent or non-http URL or a kind not sent. Returns the event. */
  send(request: NotificationRequest): NotificationEvent | null {
    const { url, operation } = request;
    if (this.#stopped || typeof url !== 'string' || !/^https?:\/\//.test(url) || !isNotifyingOperation(operation)) return null;
    const data = withoutCardData(request.record);
    const kind = eventKindOf(request.kind, data);
    if (!this.#kinds.has(kind)) return null;
    const event = createNotificationEvent({ kind, operation, data, createdAt: this.#clock() } as Parameters<typeof createNotificationEvent>[0]);
    const coarse = request.kind.startsWith('payout') ? 'payout' : 'payment';
    for (let i = 0; i < (request.copies ?? 1); i++) this.#deliver({ url, kind: coarse, key: request.key, event, resendOf: null });
    return event;
  }

  /**
   * Delivers an event again, with the same event id (the receiver de-duplicates it): by delivery id, or by event id
   * (its latest delivery). Returns the new delivery, or null when there is no such delivery.
   */
  resend(id: number | string): NotificationDelivery | null {
    const all = this.#state.notifications;
    const original = typeof id === 'number' ? all.find((d) => d.id === id) : all.findLast((d) => d.eventId === id);
    if (!original || this.#stopped) return null;
    return this.#deliver({ url: original.url, kind: original.kind, key: original.key, event: original.event, resendOf: original.id });
  }

  #deliver(input: Pick<NotificationDelivery, 'url' | 'kind' | 'key' | 'event' | 'resendOf'>): NotificationDelivery {
    const { event } = input;
    const delivery: NotificationDelivery = {
      id: this.#state.nextNotificationId(),
      ...input,
      eventId: event.id,
      eventKind: event.kind,
      body: '',
      headers: {},
      attempts: [],
      delivered: false,
    };
    this.#state.addNotification(delivery);
    this.#schedule(delivery, 0);
    return delivery;
  }

  /** Continues the attempts of a delivery loaded from a state file that was neither delivered nor out of attempts. */
  resume(delivery: NotificationDelivery): void {
    if (delivery.delivered || delivery.attempts.length >= this.#options.attempts) return;
    this.#schedule(delivery, 0);
  }

  /** Cancels every queued retry (a reset of the state); in-flight attempts finish but are neither logged nor retried. */
  cancelPending(): void {
    this.#generation += 1;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#pending -= this.#timers.size;
    this.#timers.clear();
    for (const controller of this.#inFlight) controller.abort();
  }

  #schedule(delivery: NotificationDelivery, delayMs: number): void {
    this.#pending += 1;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(delivery).finally(() => (this.#pending -= 1));
    }, delayMs);
    timer.unref();
    this.#timers.add(timer);
  }

  async #attempt(delivery: NotificationDelivery): Promise<void> {
    if (this.#stopped) return;
    const generation = this.#generation;
    const at = this.#clock();
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), this.#options.timeoutMs);
    let status: number | null = null;
    let error: string | null = null;
    try {
      // Signed afresh for each attempt, so a late retry is not outside the receiver's tolerance (UNKNOWNS U46).
      const encoded = await this.#options.encode(delivery.event, { signer: this.#signer, signedAt: this.#options.signingClock() });
      delivery.body = encoded.body;
      delivery.headers = { ...encoded.headers };
      const response = await fetch(delivery.url, { method: 'POST', headers: encoded.headers, body: encoded.body, signal: controller.signal });
      status = response.status;
      await readAtMost(response.body, this.#options.maxAnswerBytes);
    } catch (e) {
      error = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
    } finally {
      clearTimeout(timeout);
      this.#inFlight.delete(controller);
    }
    if (generation !== this.#generation) return; // the state was reset meanwhile
    this.#state.addAttempt(delivery, { at, status, error });
    if (delivery.delivered) return;
    if (delivery.attempts.length < this.#options.attempts && !this.#stopped) {
      this.#schedule(delivery, this.#options.baseDelayMs * 2 ** (delivery.attempts.length - 1));
    }
  }

  /** Resolves when nothing is queued or in flight (for tests). */
  async idle(timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.#pending > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  }

  /** Cancels pending retries and in-flight deliveries. */
  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#pending -= this.#timers.size;
    this.#timers.clear();
    for (const controller of this.#inFlight) controller.abort();
  }
}
