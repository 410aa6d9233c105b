// Opens a state file: a new one gets the schema; an existing one must be a sandbox state file of a known version whose
// content can be shown to be complete.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { SandboxStateFileError, SandboxStateIncompleteError } from './state-file-error.ts';
import { CLOSED_CLEANLY, SCHEMA, STATE_FILE_FORMAT, STATE_FILE_VERSION } from './schema.ts';

function meta(db: DatabaseSync, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM gw_sandbox_meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

function checkFormat(db: DatabaseSync, file: string): void {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
  if (tables.length === 0) {
    db.exec(SCHEMA);
    const put = db.prepare('INSERT INTO gw_sandbox_meta (key, value) VALUES (?, ?)');
    put.run('format', STATE_FILE_FORMAT);
    put.run('version', String(STATE_FILE_VERSION));
    return;
  }
  if (!tables.includes('gw_sandbox_meta') || meta(db, 'format') !== STATE_FILE_FORMAT) {
    throw new SandboxStateFileError(file, `it is an SQLite database of another program (tables: ${tables.slice(0, 5).join(', ')}), not a sandbox state file`);
  }
  const version = Number(meta(db, 'version'));
  if (version !== STATE_FILE_VERSION)
    throw new SandboxStateFileError(
      file,
      `it has format version ${String(meta(db, 'version'))}; this sandbox reads version ${STATE_FILE_VERSION} (a newer @gw/sandbox wrote it?)`,
    );
  db.exec(SCHEMA);
}

/** What this sandbox never leaves beside a state file: side files of SQLite's WAL mode, which older sandboxes used. */
const WAL_SIDE_FILES = ['-wal', '-shm'] as const;

/** True when `file` is an SQLite database in WAL mode (header bytes 18-19 = 2): the mode older sandboxes kept their files in. */
function inWalMode(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const header = Buffer.alloc(20);
    return readSync(fd, header, 0, 20, 0) === 20 && header.toString('latin1', 0, 16) === 'SQLite format 3\u0000' && header[18] === 2;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Refuses a file whose last answered writes may sit in a `-wal` beside it (or may have sat in one now missing). */
function refuseIfIncomplete(file: string, leftovers: readonly string[], closedCleanly: string | undefined): void {
  if (leftovers.length === 0 || closedCleanly === '1') return;
  const names = leftovers.map((s) => basename(s)).join(' and ');
  throw new SandboxStateIncompleteError(
    file,
    closedCleanly === '0'
      ? `the sandbox that wrote it did not stop cleanly, and ${names} lie beside it, which this sandbox never writes: the file may not be the one the sandbox wrote last, or a restore mixed copies`
      : `an older sandbox (WAL mode) did not stop cleanly with it: its last answered changes are in ${names}, which cannot be checked (missing frames, a truncated or a mismatched -wal all look the same)`,
    leftovers,
  );
}

/**
 * The open database of `file`, locked for this process, or a SandboxStateFileError saying why not. The file is kept in
 * rollback-journal mode with synchronous=FULL: each commit is complete in the file itself (and on disk) before it
 * returns, so the file alone holds every answered change; a `-journal` left by a crash holds only the unanswered
 * commit it rolls back.
 */
export async function openStateFile(file: string): Promise<DatabaseSync> {
  // Loaded only when a state file is asked for: Node 22 warns that node:sqlite is experimental when it is imported.
  const { DatabaseSync } = await import('node:sqlite');
  const leftovers = WAL_SIDE_FILES.map((suffix) => file + suffix).filter((path) => existsSync(path));
  // Decided before SQLite opens the file: it would fold whatever the -wal holds into the file, and drop it.
  if (leftovers.length > 0 && inWalMode(file)) refuseIfIncomplete(file, leftovers, undefined);
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file);
    // One sandbox per file: a second process meets "database is locked" instead of two diverging states.
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL;');
    db.exec('BEGIN IMMEDIATE; COMMIT;');
    checkFormat(db, file);
    refuseIfIncomplete(file, leftovers, meta(db, CLOSED_CLEANLY));
    // Set until close() writes '1': a file found at '0' was not closed cleanly (which alone is fine: see above).
    db.prepare('INSERT INTO gw_sandbox_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(CLOSED_CLEANLY, '0');
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof SandboxStateFileError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/locked|busy/i.test(message))
      throw new SandboxStateFileError(file, 'another sandbox process has it open (SQLite: database is locked)', { cause: error });
    if (/not a database|malformed|corrupt/i.test(message))
      throw new SandboxStateFileError(file, `it is not a readable sandbox state file (SQLite: ${message})`, { cause: error });
    throw new SandboxStateFileError(file, `it cannot be opened (${message})`, { cause: error });
  }
}
