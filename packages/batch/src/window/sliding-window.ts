/** What the window drives: how chunks are cut and sent, and what happens when it stops. */
export interface WindowJob<C> {
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Chunks cut ahead of the free slots (their intents go to disk while requests are out). */
  readonly lookahead: number;
  readonly signal?: AbortSignal | undefined;
  /** Cuts the next chunk, reading input as needed; null when nothing is queued now. Throws when the input fails. */
  cut(): Promise<C | null>;
  /** True while more chunks can come: orders queued, or input not exhausted. */
  more(): boolean;
  /** Sends a chunk; resolves once answered, with the commit of its outcomes (which may queue orders again). */
  send(chunk: C): Promise<{ readonly committed: Promise<void> }>;
  /** Writes what intake decided (rejections) between events. */
  flush(): Promise<void>;
  /** Called with the chunks cut but never sent when the batch stops. */
  unsent(chunks: C[]): Promise<void>;
  /** The error thrown when the batch was stopped by its signal. */
  interrupted(): Error;
}

/**
 * A sliding window: a new request starts as soon as one finishes, and input is read only as fast as requests go
 * out. Chunks are cut by one producer at a time into `ahead`; the loop only sends from `ahead`, so an input that
 * pauses never holds back chunks already cut. The loop sleeps until something it waits for happens (an answer, a
 * commit, a chunk cut, the producer done); an event while it is awake is kept for its next sleep.
 */
export class SlidingWindow<C> {
  readonly #job: WindowJob<C>;
  readonly #running = new Set<Promise<void>>();
  readonly #committing = new Set<Promise<void>>();
  readonly #ahead: C[] = [];
  #producing: Promise<void> | null = null;
  #failure: unknown = null;
  #wake: (() => void) | null = null;
  #missed = false;

  constructor(job: WindowJob<C>) {
    this.#job = job;
  }

  /** Runs until every chunk is sent and committed; throws the first failure, or `interrupted()` after a stop. */
  async run(): Promise<void> {
    const job = this.#job;
    for (;;) {
      if (!this.#stopped()) {
        while (this.#running.size < job.concurrency && this.#ahead.length > 0) this.#send(this.#ahead.shift()!);
        // The producer adds chunks only after its first await: they are sent when it wakes the loop.
        if (this.#producing === null && this.#wanted() && job.more()) this.#producing = this.#produce();
      }
      // A store that cannot be written stops the batch like any failure: once the requests in flight are answered.
      await job.flush().catch((error: unknown) => this.#fail(error));
      if (this.#running.size === 0 && this.#producing === null && this.#committing.size === 0) {
        if (this.#stopped()) {
          await job.unsent(this.#ahead.splice(0));
          throw this.#failure ?? job.interrupted();
        }
        // Nothing in flight, nothing being cut, nothing on its way to the store (which may queue orders again).
        if (this.#ahead.length === 0 && !job.more()) return;
        continue;
      }
      const event = this.#nextEvent();
      if (event) await event;
    }
  }

  #stopped(): boolean {
    return this.#failure !== null || this.#job.signal?.aborted === true;
  }

  #fail(error: unknown): void {
    this.#failure ??= error;
  }

  #wanted(): boolean {
    return this.#ahead.length < this.#job.concurrency - this.#running.size + this.#job.lookahead;
  }

  async #produce(): Promise<void> {
    try {
      while (!this.#stopped() && this.#wanted()) {
        const chunk = await this.#job.cut();
        if (chunk === null) break;
        this.#ahead.push(chunk);
        if (this.#running.size < this.#job.concurrency) this.#notify();
      }
    } catch (error) {
      // The input failed (a malformed CSV line, a broken stream): the batch stops once the window is empty.
      this.#fail(error);
    } finally {
      this.#producing = null;
      this.#notify();
    }
  }

  #send(chunk: C): void {
    const task: Promise<void> = this.#job
      .send(chunk)
      .then(({ committed }) => {
        // The slot is free once the answer is in; the outcomes reach the store in the background.
        const tracked: Promise<void> = committed
          .catch((error: unknown) => this.#fail(error))
          .finally(() => {
            this.#committing.delete(tracked);
            this.#notify();
          });
        this.#committing.add(tracked);
      })
      .catch((error: unknown) => this.#fail(error))
      .finally(() => {
        this.#running.delete(task);
        this.#notify();
      });
    this.#running.add(task);
  }

  #notify(): void {
    if (this.#wake === null) {
      this.#missed = true;
      return;
    }
    const woken = this.#wake;
    this.#wake = null;
    woken();
  }

  #nextEvent(): Promise<void> | null {
    if (this.#missed) {
      this.#missed = false;
      return null;
    }
    return new Promise<void>((resolve) => (this.#wake = resolve));
  }
}
