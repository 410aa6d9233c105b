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

  constructor(state: SandboxState, clock: () => Date, options: NotifyOptions = {}) {
    this.#state = state;
    this.#clock = clock;
    this.#options = { attempts: options.attempts ?? 5, baseDelayMs: options.baseDelayMs ?? 200, timeoutMs: options.timeoutMs ?? 2000, maxAnswerBytes: options.maxAnswerBytes ?? 64 * 1024 };
  }

  /** Queues a delivery of `body` (JSON) to `url`; does nothing for an absent or non-http URL. */
  send(kind: NotificationDelivery['kind'], url: unknown, key: string, body: string): void {
    if (this.#stopped || typeof url !== 'string' || !/^https?:\/\//.test(url)) return;
    const delivery: NotificationDelivery = { id: this.#state.notifications.length + 1, url, kind, key, attempts: [], delivered: false };
    this.#state.notifications.push(delivery);
    this.#schedule(delivery, body, 0);
  }

  #schedule(delivery: NotificationDelivery, body: string, delayMs: number): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(delivery, body);
    }, delayMs);
    timer.unref();
    this.#timers.add(timer);
  }

  async #attempt(delivery: NotificationDelivery, body: string): Promise<void> {
    if (this.#stopped) return;
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), this.#options.timeoutMs);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(delivery.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: controller.signal });
      status = response.status;
      await readAtMost(response.body, this.#options.maxAnswerBytes);
    } catch (e) {
      error = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
    } finally {
      clearTimeout(timeout);
      this.#inFlight.delete(controller);
    }
    delivery.attempts.push({ at: this.#clock(), status, error });
    if (status !== null && status >= 200 && status < 300) {
      delivery.delivered = true;
      return;
    }
    if (delivery.attempts.length < this.#options.attempts && !this.#stopped) {
      this.#schedule(delivery, body, this.#options.baseDelayMs * 2 ** (delivery.attempts.length - 1));
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
