import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { JournalLockHolder } from './journal/lock-holder.ts';

/** Why the journal's lock was not taken. */
export type JournalLockRefusal = 'alive' | 'stopped' | 'other-host' | 'other-pid-namespace' | 'unreadable' | 'takeover-in-progress';

/** What `JournalLockedError` found: the journal, its lock file, who holds it (null when the file cannot be read) and why it was not taken over. */
export interface JournalLockedDetails {
  readonly journal: string;
  readonly lockFile: string;
  readonly holder: JournalLockHolder | null;
  readonly reason: JournalLockRefusal;
}

function advice({ lockFile, holder, reason }: JournalLockedDetails): string {
  if (holder === null) {
    return `${lockFile} exists but is not a lock gw can read, so a batch may be using the journal; make sure no gw batch runs on it (ps), then remove ${lockFile}`;
  }
  const who = `${holder.role === 'run' ? 'runBatch (gw batch)' : 'resumeBatch (gw batch --resume)'}, pid ${holder.pid} on host ${holder.host}, started ${holder.startedAt}`;
  switch (reason) {
    case 'stopped':
      return `it is in use by ${who}, which is stopped but alive (SIGSTOP, Ctrl-Z): let it go on (kill -CONT ${holder.pid}) and finish, or end it (kill ${holder.pid}) and resume`;
    case 'other-host':
      return `it is locked by ${who}, which this machine cannot check: if no batch runs there (on ${holder.host}: ps -p ${holder.pid}), remove ${lockFile} and resume`;
    case 'other-pid-namespace':
      return `it is locked by ${who} in another pid namespace (another container), which this process cannot check: if no batch runs there, remove ${lockFile} and resume`;
    case 'takeover-in-progress':
      return `another process is taking over the stale lock of ${who}; run again in a moment, and if this persists (a takeover that crashed) make sure no gw batch runs on the journal, then remove ${lockFile} and ${lockFile}.takeover-*`;
    default:
      return `it is in use by ${who}: wait for it to end (ps -p ${holder.pid}), then resume if its batch is not finished`;
  }
}

/**
 * The journal is locked by another run or resume (`<journal>.lock`), which may be sending its orders right now: a
 * second one would send them again, so nothing was sent. A lock is taken over only when its holder, on this host, is
 * dead; a live or stopped holder, one on another host, or a lock file that cannot be read is never taken over.
 */
export class JournalLockedError extends GwError<JournalLockedDetails> {
  override readonly name = 'JournalLockedError';

  constructor(details: JournalLockedDetails) {
    super(GW_ERROR_CODES.config, `${details.journal}: nothing was sent, because ${advice(details)}`, details);
  }
}
