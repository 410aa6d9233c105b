// Opens a state file: a new one gets the schema; an existing one must be a sandbox state file of a known version.
import type { DatabaseSync } from 'node:sqlite';
import { SandboxStateFileError } from './state-file-error.ts';
import { SCHEMA, STATE_FILE_FORMAT, STATE_FILE_VERSION } from './schema.ts';

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
  if (version !== STATE_FILE_VERSION) throw new SandboxStateFileError(file, `it has format version ${String(meta(db, 'version'))}; this sandbox reads version ${STATE_FILE_VERSION} (a newer @gw/sandbox wrote it?)`);
  db.exec(SCHEMA);
}

/** The open database of `file`, locked for this process, or a SandboxStateFileError saying why not. */
export async function openStateFile(file: string): Promise<DatabaseSync> {
  // Loaded only when a state file is asked for: Node 22 warns that node:sqlite is experimental when it is imported.
  const { DatabaseSync } = await import('node:sqlite');
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file);
    // One sandbox per file: a second process meets "database is locked" instead of two diverging states.
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
    db.exec('BEGIN IMMEDIATE; COMMIT;');
    checkFormat(db, file);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof SandboxStateFileError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/locked|busy/i.test(message)) throw new SandboxStateFileError(file, 'another sandbox process has it open (SQLite: database is locked)', { cause: error });
    if (/not a database|malformed|corrupt/i.test(message)) throw new SandboxStateFileError(file, `it is not a readable sandbox state file (SQLite: ${message})`, { cause: error });
    throw new SandboxStateFileError(file, `it cannot be opened (${message})`, { cause: error });
  }
}
