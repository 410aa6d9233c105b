import type pg from 'pg';
import { LedgerConnectionError } from '../errors.ts';

// What a ledger checks when it opens, before a batch starts: that the server took the connection as set up (TLS, the
// role), and that what sits between keeps the ledger's guarantees. Each finding is a LedgerConnectionError naming the
// setting to change; a server merely out of reach is an outage, ridden out elsewhere.

/** Node's TLS verification failures: the server's certificate was not vouched for by the CA given, or not for this host. */
const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * The connection error `error` as the setting that causes it, or null when it is not one (an outage, a statement).
 * Messages name no password and no file path: a URL's certificate paths are as secret as its password.
 */
export function connectionProblem(error: unknown): LedgerConnectionError | null {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  const found = (setting: string, problem: string) => new LedgerConnectionError({ setting, problem }, { cause: error });
  if (typeof code === 'string' && CERTIFICATE_CODES.has(code)) {
    return found(
      "sslrootcert (the CA that signed the server's certificate) or the host name in the ledger URL",
      `the server's TLS certificate was refused (${code})`,
    );
  }
  if (/does not support SSL/i.test(text)) return found('sslmode', 'the server does not take TLS connections, and the URL asks for TLS');
  // Without its cause: the file system's message names the file.
  if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
    return new LedgerConnectionError({
      setting: 'sslrootcert, sslcert or sslkey',
      problem: `a certificate or key file named in the ledger URL could not be read (${code})`,
    });
  if (code === '28000') return found("sslmode, or the server's pg_hba.conf", `the server refused this connection: ${text.replace(/"[^"]*"/g, '"…"')}`);
  if (code === '28P01') return found("the ledger URL's user or password", 'the server refused the password');
  if (code === '3D000') return found('the database name in the ledger URL', 'the database does not exist');
  return null;
}

/**
 * Checks what sits between this process and the server keeps the ledger's guarantees: transactions (the migrations
 * run in one; a pooler in statement mode refuses them) and writes (a read-only server, a standby, or a pooler routing
 * to one).
 */
export async function checkConnection(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('BEGIN');
    await client.query('COMMIT');
  } catch (error) {
    throw new LedgerConnectionError(
      {
        setting: 'pool_mode (use transaction or session pooling)',
        problem: `a transaction was refused (${(error as Error).message}): a pooler in statement mode cannot carry the ledger's migrations`,
      },
      { cause: error },
    );
  }
  const { rows } = await client.query<{ read_only: string; recovery: boolean }>(
    "SELECT current_setting('transaction_read_only') AS read_only, pg_is_in_recovery() AS recovery",
  );
  const row = rows[0];
  if (row?.read_only === 'on' || row?.recovery) {
    throw new LedgerConnectionError({
      setting: "the ledger URL (the primary's address, not a standby's or a read-only pooler's) or default_transaction_read_only",
      problem: row.recovery ? 'the server is a standby, which only reads' : 'the connection only reads (default_transaction_read_only)',
    });
  }
}
