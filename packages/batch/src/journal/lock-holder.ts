import { readFile, readlink } from 'node:fs/promises';
import { hostname } from 'node:os';

/** What a journal's lock file says about the process holding it. */
export interface JournalLockHolder {
  readonly pid: number;
  /** `os.hostname()` of the holder's machine: only a holder on this host can be checked. */
  readonly host: string;
  /** When the holder took the lock (ISO 8601). */
  readonly startedAt: string;
  /** The holder's start time (`/proc/<pid>/stat` field 22, clock ticks since boot), to tell a reused pid; null without /proc. */
  readonly processStart: string | null;
  /** The holder's pid namespace (`/proc/self/ns/pid`): a pid of another namespace (another container) cannot be checked from here. */
  readonly pidNamespace: string | null;
  /** What the holder is doing with the journal. */
  readonly role: 'run' | 'resume';
  /**
   * How long after the holder wrote a request that request could still take effect: its `timeoutMs + sendMarginMs`.
   * A resume that takes over from a dead holder waits this long after it was last seen. Null in a lock written
   * without it.
   */
  readonly requestsEndWithinMs: number | null;
}

/** How a lock's holder looks from this process. */
export type HolderState = 'alive' | 'stopped' | 'dead' | 'pid-reused' | 'other-host' | 'other-pid-namespace';

/** The fields of `/proc/<pid>/stat` after the command name (which may hold spaces and parentheses); null when unreadable. */
async function procStat(pid: number | 'self'): Promise<string[] | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (text === null) return null;
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

// After the command name, field 3 (state) is at index 0, so field 22 (starttime) is at index 19.
const STATE = 0;
const START_TIME = 19;

/** This process as a lock holder. */
export async function thisHolder(role: JournalLockHolder['role'], requestsEndWithinMs: number): Promise<JournalLockHolder> {
  const stat = await procStat('self');
  const pidNamespace = await readlink('/proc/self/ns/pid').catch(() => null);
  return {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    processStart: stat?.[START_TIME] ?? null,
    pidNamespace,
    role,
    requestsEndWithinMs,
  };
}

/** True unless signal 0 finds no such process (ESRCH); EPERM means it exists under another user. */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Whether the holder still runs. Only `dead` and `pid-reused` let a lock be taken over: anything this process cannot
 * check (another host or pid namespace, a pid it cannot read the start time of) counts as alive.
 */
export async function holderState(holder: JournalLockHolder): Promise<HolderState> {
  if (holder.host !== hostname()) return 'other-host';
  const here = await readlink('/proc/self/ns/pid').catch(() => null);
  if (holder.pidNamespace !== null && here !== null && holder.pidNamespace !== here) return 'other-pid-namespace';
  if (!pidExists(holder.pid)) return 'dead';
  const stat = await procStat(holder.pid);
  if (stat === null) return 'alive';
  const state = stat[STATE];
  if (state === 'Z' || state === 'X') return 'dead';
  if (holder.processStart !== null && stat[START_TIME] !== holder.processStart) return 'pid-reused';
  return state === 'T' || state === 't' ? 'stopped' : 'alive';
}

/** The holder a lock file's text names, or null when it is not a lock this code wrote (garbled, partly written). */
export function parseHolder(text: string): JournalLockHolder | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const h = value as Record<string, unknown>;
  const nullableString = (v: unknown) => v === null || typeof v === 'string';
  const ok =
    Number.isSafeInteger(h.pid) &&
    (h.pid as number) > 0 &&
    typeof h.host === 'string' &&
    typeof h.startedAt === 'string' &&
    nullableString(h.processStart) &&
    nullableString(h.pidNamespace ?? null) &&
    (h.role === 'run' || h.role === 'resume') &&
    (h.requestsEndWithinMs === undefined ||
      h.requestsEndWithinMs === null ||
      (Number.isSafeInteger(h.requestsEndWithinMs) && (h.requestsEndWithinMs as number) >= 0));
  if (!ok) return null;
  return {
    pid: h.pid as number,
    host: h.host as string,
    startedAt: h.startedAt as string,
    processStart: h.processStart as string | null,
    pidNamespace: (h.pidNamespace ?? null) as string | null,
    role: h.role as JournalLockHolder['role'],
    requestsEndWithinMs: (h.requestsEndWithinMs ?? null) as number | null,
  };
}
