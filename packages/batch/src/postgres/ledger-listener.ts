import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { LedgerConnectionError } from '../errors.ts';

/** The channel a ledger proves its wake-ups on: a notification sent through the pool must reach the listening connection. */
const PROBE_CHANNEL = 'gw_ledger_probe';

/** How long the proof waits for its notification (a direct connection delivers it in milliseconds). */
export const LISTEN_PROBE_MS = 1_000;

/**
 * Where a ledger's wake-ups are listened for: a URL (a connection of its own; `given`: named by the user as the listen
 * URL, so it must deliver), or the ledger's own pool (a pool the caller owns).
 */
export type ListenSource = { readonly url: string; readonly given: boolean } | { readonly pool: pg.Pool };

/** A connection that LISTENs, and how to end it (a last statement, then closed or handed back). */
interface Listening {
  readonly client: pg.ClientBase;
  readonly end: (last: string) => Promise<void>;
}

/** What the listener needs of its ledger: a notification sent through the ledger's pool, and where to say a fallback. */
export interface ListenerLedger {
  readonly notify: (channel: string, payload: string) => Promise<void>;
  readonly onNotice: ((message: string) => void) | undefined;
}

/** Opens a connection of its own to `source` (an error on it later only ends the wake-ups, never the process). */
async function connect(source: ListenSource): Promise<Listening> {
  const ignore = (): void => {};
  if ('pool' in source) {
    const client = await source.pool.connect();
    client.on('error', ignore);
    const release = (error?: Error): void => {
      client.off('error', ignore);
      client.release(error);
    };
    return {
      client,
      end: (last) =>
        client.query(last).then(
          () => release(),
          (error: Error) => release(error),
        ),
    };
  }
  const client = new pg.Client({ connectionString: source.url });
  client.on('error', ignore);
  await client.connect();
  return {
    client,
    end: (last) =>
      client.query(last).then(
        () => client.end(),
        () => client.end().catch(() => {}),
      ),
  };
}

/**
 * A ledger's wake-ups (LISTEN/NOTIFY), proven once: the first connection listening waits for a notification sent
 * through the ledger's pool. A transaction pooler (PgBouncer's default) delivers none to an idle client: then a
 * listen URL the user gave is refused (LedgerConnectionError), and otherwise the ledger says once that its workers
 * poll, and listening does nothing.
 */
export class LedgerListener {
  readonly #source: ListenSource;
  readonly #ledger: ListenerLedger;
  /** Null until the first connection listened; then whether notifications arrive. */
  #delivers: boolean | null = null;

  constructor(source: ListenSource, ledger: ListenerLedger) {
    this.#source = source;
    this.#ledger = ledger;
  }

  /** True once wake-ups are proven to arrive, false once proven not to (workers poll), null before the first listen. */
  get delivers(): boolean | null {
    return this.#delivers;
  }

  /**
   * LISTENs on `channels`, calling `heard` with each notification; returns how to stop (nothing to stop when polling).
   * `signal` gives up while the first listen still waits for its proof: nothing is decided or said, nothing listened.
   */
  async listen(channels: readonly string[], heard: (message: pg.Notification) => void, signal?: AbortSignal): Promise<() => Promise<void>> {
    if (this.#delivers === false || signal?.aborted) return async () => {};
    const listening = await connect(this.#source);
    const { client } = listening;
    const onNotification = (message: pg.Notification): void => {
      if (message.channel !== PROBE_CHANNEL) heard(message);
    };
    client.on('notification', onNotification);
    const unlisten = channels.length === 0 ? 'SELECT 1' : channels.map((c) => `UNLISTEN ${c}`).join('; ');
    let proof: boolean | null = this.#delivers;
    try {
      if (channels.length > 0) await client.query(channels.map((c) => `LISTEN ${c}`).join('; '));
      if (proof === null) proof = await this.#proven(client, signal);
      if (proof !== null) this.#delivers ??= proof;
    } catch (error) {
      client.off('notification', onNotification);
      await listening.end('SELECT 1').catch(() => {});
      throw error;
    }
    if (!proof) {
      client.off('notification', onNotification);
      await listening.end(unlisten).catch(() => {});
      return async () => {};
    }
    return () => {
      client.off('notification', onNotification);
      return listening.end(unlisten);
    };
  }

  /** Proves the wake-ups now (a listen URL the user gave is refused at once when it delivers nothing). */
  async prove(): Promise<void> {
    if (this.#delivers === null) await (await this.listen([], () => {}))();
  }

  /** Whether a notification sent through the ledger's pool reaches `client` within LISTEN_PROBE_MS; null when `signal` gave up first. */
  async #proven(client: pg.ClientBase, signal?: AbortSignal): Promise<boolean | null> {
    const token = randomUUID();
    await client.query(`LISTEN ${PROBE_CHANNEL}`);
    const arrived = new Promise<boolean | null>((resolve) => {
      const timer = setTimeout(() => done(false), LISTEN_PROBE_MS);
      const onAbort = (): void => done(null);
      signal?.addEventListener('abort', onAbort, { once: true });
      const onProbe = (message: pg.Notification): void => {
        if (message.channel === PROBE_CHANNEL && message.payload === token) done(true);
      };
      const done = (delivered: boolean | null): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        client.off('notification', onProbe);
        resolve(delivered);
      };
      client.on('notification', onProbe);
    });
    await this.#ledger.notify(PROBE_CHANNEL, token);
    const delivered = await arrived;
    await client.query(`UNLISTEN ${PROBE_CHANNEL}`).catch(() => {});
    if (delivered === false) this.#noDelivery();
    return delivered;
  }

  #noDelivery(): void {
    const how = `delivered no notification within ${LISTEN_PROBE_MS / 1000} s`;
    if ('url' in this.#source && this.#source.given) {
      throw new LedgerConnectionError({
        setting: '--ledger-listen-url (ledgerListen)',
        problem: `the listen URL ${how}: it must reach the ledger's database directly (or through a session pooler), not through a transaction pooler`,
      });
    }
    this.#ledger.onNotice?.(
      `the ledger's connection ${how} (a transaction pooler such as PgBouncer?): workers look for work every pollMs and learn of a throttle's pause at their next step; give --ledger-listen-url (ledgerListen) a direct connection to the same database to be woken at once`,
    );
  }
}
