// What a worker role needs on a migrated ledger, and nothing more: it reads and writes the ledger's rows (it never
// deletes one, nor creates, alters or drops a table), draws chunk numbers from its sequence, and reads which
// migration the database is at. A test holds LEDGER_TABLES equal to the tables the migrations make.

/** The tables the ledger's migrations make, which every worker reads and writes. */
export const LEDGER_TABLES = [
  'gw_batch',
  'gw_batch_chunk',
  'gw_batch_outcome',
  'gw_batch_result',
  'gw_order_claim',
  'gw_batch_input',
  'gw_batch_pace_report',
] as const;

/** The sequences the migrations make: chunk numbers (a resend makes a new chunk). */
export const LEDGER_SEQUENCES = ['gw_batch_chunk_seq'] as const;

/** The table recording the migrations applied, which a worker only reads. */
export const MIGRATIONS_TABLE = 'gw_ledger_migration';

/** A name as an SQL identifier: quoted when it is not a plain lower-case one. */
function identifier(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

/** The exact GRANT statements a worker role `role` needs on a ledger migrated into `schema` (`public` by default). */
export function ledgerGrants(role: string, schema = 'public'): string[] {
  const r = identifier(role);
  const s = identifier(schema);
  const tables = LEDGER_TABLES.map((t) => `${s}.${t}`).join(', ');
  return [
    `GRANT USAGE ON SCHEMA ${s} TO ${r};`,
    `GRANT SELECT, INSERT, UPDATE ON ${tables} TO ${r};`,
    `GRANT USAGE ON SEQUENCE ${LEDGER_SEQUENCES.map((q) => `${s}.${q}`).join(', ')} TO ${r};`,
    `GRANT SELECT ON ${s}.${MIGRATIONS_TABLE} TO ${r};`,
  ];
}
