// The grants `gw ledger migrate` prints are written from LEDGER_TABLES and LEDGER_SEQUENCES: they must name every
// table and sequence the migrations make, or a worker role would meet a permission error mid-batch.
import { describe, expect, it } from 'vitest';
import { LEDGER_SEQUENCES, LEDGER_TABLES, ledgerGrants } from '../src/index.ts';
import type { PgLedger } from '../src/postgres/pg-ledger.ts';
import { ledgerForFile } from './pg/database.ts';

let ledger: PgLedger;
ledgerForFile((opened) => (ledger = opened));

describe('the grants a worker role needs', () => {
  it('name every table and sequence the migrations make (the migrations table read-only)', async () => {
    const tables = (
      await ledger.pool.query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1')
    ).rows.map((r) => r.name);
    expect(tables).toEqual([...LEDGER_TABLES, 'gw_ledger_migration'].sort());
    const sequences = (
      await ledger.pool.query<{ name: string }>(
        'SELECT sequence_name AS name FROM information_schema.sequences WHERE sequence_schema = current_schema() ORDER BY 1',
      )
    ).rows.map((r) => r.name);
    expect(sequences).toEqual([...LEDGER_SEQUENCES].sort());
  });

  it('are GRANT statements for the role and schema given, a name that needs quoting quoted', () => {
    expect(ledgerGrants('gw_worker')).toEqual([
      'GRANT USAGE ON SCHEMA public TO gw_worker;',
      `GRANT SELECT, INSERT, UPDATE ON ${LEDGER_TABLES.map((t) => `public.${t}`).join(', ')} TO gw_worker;`,
      'GRANT USAGE ON SEQUENCE public.gw_batch_chunk_seq TO gw_worker;',
      'GRANT SELECT ON public.gw_ledger_migration TO gw_worker;',
    ]);
    expect(ledgerGrants('Batch "Workers"', 'ledger')[0]).toBe('GRANT USAGE ON SCHEMA ledger TO "Batch ""Workers""";');
  });
});
