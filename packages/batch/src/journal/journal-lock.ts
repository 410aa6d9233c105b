import { createHash, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { JournalLockedError } from '../errors.ts';
import { holderState, parseHolder, thisHolder, type JournalLockHolder } from './lock-holder.ts';

/** An exclusive lock on one journal, held from before the journal is read until `release()`. */
export interface JournalLock {
  /** `<journal>.lock`. */
  readonly lockFile: string;
  /**
   * The holder of a stale lock this one replaced (a dead process, whose last requests may still be in flight), else
   * null; `provenGoneAt`: when this process found it dead (epoch ms), just before replacing its lock. A dead process
   * sends nothing more, so every request it wrote was written before then: no clock of the dead holder's is trusted.
   */
  readonly tookOverFrom: (JournalLockHolder & { readonly provenGoneAt: number }) | null;
  /**
   * The fence: true while `<journal>.lock` is still this lock's own file (the same file it created, never removed or
   * replaced). Synchronous, checked as each request is written: a run whose lock was taken from it sends nothing more.
   */
  held(): boolean;
  /** Removes the lock file if it is still this lock's; safe to call more than once. */
  release(): Promise<void>;
}

/** Which file a path names (device and inode): a lock replaced by a rename, or removed and made anew, is another file. */
type FileIdentity = { readonly dev: bigint; readonly ino: bigint };

function identityOf(path: string): FileIdentity | null {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  return stats ? { dev: stats.dev, ino: stats.ino } : null;
}

/** How long a lock file found empty or unparsable is read again: its creator may be between open and write. */
const UNREADABLE_RETRY_MS = 1_000;
/** How long to wait for another process taking over the same stale lock. */
const TAKEOVER_WAIT_MS = 3_000;
const POLL_MS = 20;

/** Creates the lock file with O_EXCL; null when it exists, else the identity of the file made. */
async function createExclusive(lockFile: string, text: string): Promise<FileIdentity | null> {
  let file;
  try {
    file = await open(lockFile, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw error;
  }
  let identity: FileIdentity;
  try {
    await file.writeFile(text);
    await file.datasync();
    const stats = await file.stat({ bigint: true });
    identity = { dev: stats.dev, ino: stats.ino };
  } catch (error) {
    await file.close().catch(() => {});
    await unlink(lockFile).catch(() => {});
    throw error;
  }
  await file.close();
  return identity;
}

/** The lock file's text and holder (holder null if unreadable after a short wait); null if the file is gone. */
async function readLock(lockFile: string): Promise<{ text: string; holder: JournalLockHolder | null } | null> {
  const until = Date.now() + UNREADABLE_RETRY_MS;
  for (;;) {
    let text: string;
    try {
      text = await readFile(lockFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      return { text: '', holder: null }; // EACCES, EISDIR, ...: a lock that cannot be read is not taken over
    }
    const holder = parseHolder(text);
    if (holder !== null || Date.now() >= until) return { text, holder };
    await sleep(POLL_MS);
  }
}

/**
 * Replaces the stale lock whose text is `stale` with this one's. Contenders for the same stale lock first create its
 * takeover file with O_EXCL, so one at a time checks that the lock still holds that text and renames its own complete
 * lock file over it: the lock path is never missing, so no newcomer can slip in, and no second contender can replace
 * the winner's lock. Returns the identity of the lock file now in place, 'changed' (the lock is no longer that one:
 * look again) or 'busy'.
 */
async function replaceStale(lockFile: string, stale: string, text: string): Promise<FileIdentity | 'changed' | 'busy'> {
  const claim = `${lockFile}.takeover-${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`;
  if ((await createExclusive(claim, text)) === null) return 'busy';
  const ours = `${lockFile}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    const now = await readFile(lockFile, 'utf8').catch(() => null);
    if (now !== stale) return 'changed';
    await writeFile(ours, text, { flag: 'wx', flush: true });
    const stats = await stat(ours, { bigint: true });
    await rename(ours, lockFile);
    return { dev: stats.dev, ino: stats.ino };
  } finally {
    await unlink(ours).catch(() => {});
    await unlink(claim).catch(() => {});
  }
}

/**
 * Takes the journal's lock (`<journal>.lock`, created with O_EXCL, naming this process and how long its requests can
 * take to end) or throws `JournalLockedError`. A lock is taken over only when its holder is on this host and dead, or
 * its pid now belongs to another process; `tookOverFrom` then names that holder.
 */
export async function lockJournal(journal: string, role: JournalLockHolder['role'], requestsEndWithinMs: number): Promise<JournalLock> {
  const lockFile = `${journal}.lock`;
  const text = `${JSON.stringify(await thisHolder(role, requestsEndWithinMs))}\n`;
  const waitUntil = Date.now() + TAKEOVER_WAIT_MS;
  let tookOverFrom: JournalLock['tookOverFrom'] = null;
  let ours: FileIdentity;
  for (;;) {
    const created = await createExclusive(lockFile, text);
    if (created !== null) {
      ours = created;
      break;
    }
    const found = await readLock(lockFile);
    if (found === null) continue; // released meanwhile
    const { holder } = found;
    if (holder === null) throw new JournalLockedError({ journal, lockFile, holder, reason: 'unreadable' });
    const state = await holderState(holder);
    if (state !== 'dead' && state !== 'pid-reused') throw new JournalLockedError({ journal, lockFile, holder, reason: state });
    const provenGoneAt = Date.now();
    const replaced = await replaceStale(lockFile, found.text, text);
    if (typeof replaced === 'object') {
      ours = replaced;
      tookOverFrom = { ...holder, provenGoneAt };
      break;
    }
    if (replaced === 'busy') {
      if (Date.now() >= waitUntil) throw new JournalLockedError({ journal, lockFile, holder, reason: 'takeover-in-progress' });
      await sleep(POLL_MS);
    }
  }
  let released = false;
  return {
    lockFile,
    tookOverFrom,
    held() {
      const now = released ? null : identityOf(lockFile);
      return now !== null && now.dev === ours.dev && now.ino === ours.ino;
    },
    async release() {
      if (released) return;
      released = true;
      // Only this lock's own file: if it was removed by hand and another run took the journal, that lock stays.
      if ((await readFile(lockFile, 'utf8').catch(() => null)) === text) await unlink(lockFile).catch(() => {});
    },
  };
}
