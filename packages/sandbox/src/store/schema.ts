// The state file's tables (node:sqlite): one row per entity, its JSON text in `body` (src/store/codec.ts).

/** Written in the meta table; a file without it is not a sandbox state file. */
export const STATE_FILE_FORMAT = 'gw-sandbox-state';
/** The format version this sandbox writes and reads. */
export const STATE_FILE_VERSION = 1;

/** Meta key: '1' once a sandbox closed the file, '0' while one has it open (or was killed with it open). */
export const CLOSED_CLEANLY = 'closedCleanly';

/** The tables, created when the file is new. */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS gw_sandbox_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS orders (key TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS subscriptions (key TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS payouts (key TEXT PRIMARY KEY, body TEXT NOT NULL, parameters TEXT);
CREATE TABLE IF NOT EXISTS notifications (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ledger (seq INTEGER PRIMARY KEY, body TEXT NOT NULL);
`;

/** The entity tables keyed by text, in load order. */
export const KEYED_TABLES = ['orders', 'subscriptions', 'payouts'] as const;
