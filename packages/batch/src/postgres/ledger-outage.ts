import { LedgerUnavailableError } from '../errors.ts';
import { outageWaited } from '../telemetry/ledger-telemetry.ts';

/**
 * Driver and server errors that mean the connection was lost or could not be made (server stopped, restarting,
 * unreachable), or that a statement was stopped whole and may run again: cancelled (`statement_timeout`, an
 * administrator), a lock not had in time (`lock_timeout`), a deadlock broken, or a server that turned read-only (a
 * failover under way: the old primary a standby, the pooler or address not yet moved). Each rolls its statement back.
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57014',
  '55P03',
  '40001',
  '40P01',
  '25006',
]);
const CONNECTION_MESSAGES = /Connection terminated|connection timeout|Client has encountered a connection error|terminating connection/i;

/** True when `error` says the database could not be reached or stopped a statement whole, not that a statement was wrong. */
export function isConnectionLost(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && CONNECTION_CODES.has(code)) || (typeof message === 'string' && CONNECTION_MESSAGES.test(message));
}

function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return typeof code === 'string' ? code : typeof message === 'string' ? message.slice(0, 80) : 'unknown';
}

/**
 * Rides out a ledger that cannot be reached: while it is down, each failed statement waits (backoff from 100 ms to
 * 2 s) and is tried again, until it has been down `budgetMs` in all; then a LedgerUnavailableError. `down` tells the
 * worker to start nothing new meanwhile.
 */
export class LedgerOutage {
  readonly #budgetMs: number;
  #downSince: number | null = null;
  #tries = 0;

  constructor(budgetMs: number) {
    this.#budgetMs = budgetMs;
  }

  /** The ledger failed its last statement and has not answered since. */
  get down(): boolean {
    return this.#downSince !== null;
  }

  /** A statement went through: the outage (if any) is over. */
  reached(): void {
    this.#downSince = null;
    this.#tries = 0;
  }

  /** After a connection failure: waits before the next try, or throws once the outage has lasted its budget. */
  async wait(error: unknown, batch: string | null): Promise<void> {
    const now = performance.now();
    this.#downSince ??= now;
    const elapsed = now - this.#downSince;
    if (elapsed >= this.#budgetMs) throw new LedgerUnavailableError({ batch, unreachableMs: elapsed, reason: reasonOf(error) }, { cause: error });
    const delay = Math.min(2000, 100 * 2 ** this.#tries++, this.#budgetMs - elapsed);
    outageWaited(Math.max(delay, 1), elapsed, reasonOf(error));
    await new Promise((resolve) => setTimeout(resolve, Math.max(delay, 1)));
  }
}
