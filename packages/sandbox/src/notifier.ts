import type { NotificationDelivery, SandboxState } from './state.ts';

/** How notifications are retried (UNKNOWNS U45). */
export interface NotifyOptions {
  /** Attempts in all, the first included. Default 5. */
  readonly attempts?: number;
  /** Delay before the second attempt; doubles each time. Default 200 ms. */
  readonly baseDelayMs?: number;
  /** Time allowed for one attempt. Default 2000 ms. */
  readonly timeoutMs?: number;
  /** How much of an endpoint's answer body is read; the rest is discarded unread (UNKNOWNS U51). Default 64 KiB. */
  readonly maxAnswerBytes?: number;
}

/** Reads at most `limit` bytes of an answer body, then cancels it: a huge answer costs no memory. */
async function readAtMost(body: ReadableStream<Uint8Array> | null, limit: number): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  let read = 0;
  try {
    while (read <= limit) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } finally {
    reader.releaseLock();
  }
}

/** Delivers notifications with bounded exponential backoff and keeps every attempt in the state's delivery log. */
export class Notifier {
  readonly #state: SandboxState;
  readonly #options: Required<NotifyOptions>;
  readonly #clock: () => Date;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<AbortController>();
  #stopped = false;
  #generation = 0;

  constructor(state: SandboxState, clock: () => Date, options: NotifyOptions = {}) {
    this.#state = state;
    this.#clock = clock;
    this.#options = { attempts: options.attempts ?? 5, baseDelayMs: options.baseDelayMs ?? 200, timeoutMs: options.timeoutMs ?? 2000, maxAnswerBytes: options.maxAnswerBytes ?? 64 * 1024 };
  }

  /** Queues a delivery of `body` (JSON) to `url`; does nothing for an absent or non-http URL. */
  send(kind: NotificationDelivery['kind'], url: unknown, key: string, body: string): void {
    if (this.#stopped || typeof url !== 'string' || !/^https?:\/\//.test(url)) return;
    const delivery: NotificationDelivery = { id: this.#state.nextNotificationId(), url, kind, key, attempts: [], delivered: false, body };
    this.#state.addNotification(delivery);
    this.#schedule(delivery, 0, 0);
  }

  /** Delivers a logged notification again, the same body, with a fresh round of attempts; false when there is no such id. */
  resend(id: number): boolean {
    const delivery = this.#state.notifications.find((d) => d.id === id);
    if (!delivery || this.#stopped) return false;
    this.#schedule(delivery, 0, 0);
    return true;
  }

  /** Continues the attempts of a notification loaded from a state file that was neither delivered nor out of attempts. */
  resume(delivery: NotificationDelivery): void {
    if (delivery.delivered || delivery.attempts.length >= this.#options.attempts) return;
    this.#schedule(delivery, delivery.attempts.length, 0);
  }

  /** Cancels every queued retry (a reset of the state); in-flight attempts finish but are not retried. */
  cancelPending(): void {
    this.#generation += 1;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const controller of this.#inFlight) controller.abort();
  }

  // `made` counts the attempts of this round: a resend starts a new round of up to `attempts`.
  #schedule(delivery: NotificationDelivery, made: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(delivery, made);
    }, delayMs);
    timer.unref();
    this.#timers.add(timer);
  }

  async #attempt(delivery: NotificationDelivery, made: number): Promise<void> {
    if (this.#stopped) return;
    const generation = this.#generation;
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), this.#options.timeoutMs);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(delivery.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: delivery.body, signal: controller.signal });
      status = response.status;
      await readAtMost(response.body, this.#options.maxAnswerBytes);
    } catch (e) {
      error = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
    } finally {
      clearTimeout(timeout);
      this.#inFlight.delete(controller);
    }
    if (generation !== this.#generation) return; // the state was reset meanwhile
    this.#state.addAttempt(delivery, { at: this.#clock(), status, error });
    if (status !== null && status >= 200 && status < 300) return;
    if (made + 1 < this.#options.attempts && !this.#stopped) {
      this.#schedule(delivery, made + 1, this.#options.baseDelayMs * 2 ** made);
    }
  }

  /** Resolves when nothing is queued or in flight (for tests). */
  async idle(timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while ((this.#timers.size > 0 || this.#inFlight.size > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  }

  /** Cancels pending retries and in-flight deliveries. */
  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const controller of this.#inFlight) controller.abort();
  }
}
