// A batch's input is fixed at its start. `gw batch capture a.csv` is killed with SIGKILL (a real process) during its
// intake or after it; `--resume` with another file, the same file reordered, a shorter or a longer one is refused
// before anything is sent (exit 2, the first difference named, the store untouched), with the journal and the
// ledger alike; `--resume` with a.csv then finishes the batch, every order captured exactly once.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { outcomesFromLedger } from '@gw/batch';
import type { Sandbox } from '@gw/sandbox';
import { ORDERS_CSV_HEADER, ordersCsv, type CaptureOrder } from '@gw/test-support';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw } from './io.ts';
import { authorisedOrdersFile, sandboxAndLedgerForFile } from './sandbox-harness.ts';

const BIN = join(import.meta.dirname, '../src/bin.ts');
const ORDERS = 1000;

let sandbox: Sandbox;
let ledger: string;
sandboxAndLedgerForFile('cli_input', async (started) => {
  ({ sandbox, ledger } = started);
  // The ledger's tables, made before a test puts a trigger on one of them.
  await outcomesFromLedger(ledger, 'none').catch(() => {});
});

const captures = () => sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;

/** `gw args` as a process of its own in `cwd`, to be killed with SIGKILL. */
function started(args: string[], cwd: string): { kill: () => void; exited: Promise<unknown> } {
  const child = spawn(process.execPath, ['--conditions=@gw/source', BIN, ...args], { cwd, stdio: 'ignore' });
  return { kill: () => child.kill('SIGKILL'), exited: new Promise((resolve) => child.on('exit', resolve)) };
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** a.csv (authorised orders) and the files that are not it: other orders, a reordered, a shorter and a longer copy. */
async function orderFiles(dir: string): Promise<{ orders: CaptureOrder[]; wrong: [name: string, said: RegExp][] }> {
  const orders = await authorisedOrdersFile(sandbox, join(dir, 'a.csv'), ORDERS, { prefix: 'OWN', amount: '5.00' });
  const others = orders.map((o) => ({ ...o, transaction_id: `${o.transaction_id}0`, order_no: `${o.order_no}-other` }));
  writeFileSync(join(dir, 'other.csv'), ordersCsv(others));
  writeFileSync(join(dir, 'reordered.csv'), ordersCsv([...orders].reverse()));
  writeFileSync(join(dir, 'shorter.csv'), ordersCsv(orders.slice(0, ORDERS - 10)));
  writeFileSync(join(dir, 'longer.csv'), ordersCsv([...orders, ...others.slice(0, 10)]));
  expect(readFileSync(join(dir, 'a.csv'), 'utf8').startsWith(ORDERS_CSV_HEADER)).toBe(true);
  return {
    orders,
    wrong: [
      ['other.csv', /input order #0 is not the one the batch took in at that place \(its order_no, transaction_id differ\)/],
      ['reordered.csv', /input order #0 is not the one the batch took in/],
      ['shorter.csv', /the input (has 990 orders, but the batch was started with 1000|ends after 990 orders)/],
      ['longer.csv', /the input (has 1010 orders, but the batch was started with 1000|has more than the 1000 orders)/],
    ],
  };
}

/** Each wrong file given to --resume is refused with exit 2 before anything is sent, and the store is as it was. */
async function wrongFilesRefused(dir: string, wrong: [string, RegExp][], flags: string[], store: () => Promise<string>): Promise<void> {
  const before = { sent: captures(), store: await store() };
  for (const [file, said] of wrong) {
    const resumed = await gw(['batch', 'capture', file, '--resume', '--results', `${file}.results.csv`, ...flags], { cwd: dir });
    expect(resumed.status, `${file}: ${resumed.err}`).toBe(EXIT_CODES.usage);
    expect(resumed.err).toMatch(said);
    expect(resumed.err).toContain('nothing was sent');
    expect(captures(), file).toBe(before.sent);
    expect(await store(), file).toBe(before.store);
  }
}

/** The right file finishes the batch: exit 0, every order succeeded once and captured once. */
async function rightFileFinishes(dir: string, orders: readonly CaptureOrder[], flags: string[]): Promise<void> {
  const resumed = await gw(['batch', 'capture', 'a.csv', '--resume', ...flags], { cwd: dir });
  expect(resumed.err).toBe('');
  expect(resumed.status).toBe(EXIT_CODES.ok);
  // Progress and results count each order once: never more done than the batch has orders.
  const progress = [...resumed.out.matchAll(/progress: (\d+)\/(\d+) orders/g)].map((m) => [Number(m[1]), Number(m[2])]);
  expect(progress.at(-1)).toEqual([ORDERS, ORDERS]);
  expect(progress.filter(([done, total]) => done! > total!)).toEqual([]);
  expect(readFileSync(join(dir, 'a.capture.results.csv'), 'utf8').match(/,succeeded,/g)).toHaveLength(ORDERS);
  const applied = sandbox.state.appliedCounts('capture');
  expect(orders.filter((o) => applied.get(o.transaction_id) !== 1)).toEqual([]);
}

async function query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: ledger });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Everything the ledger holds of a batch, as text: a refused resume leaves it exactly so. */
async function ledgerState(batch: string): Promise<string> {
  const rows = await Promise.all(
    [
      'gw_batch WHERE id = $1',
      'gw_batch_chunk WHERE batch_id = $1 ORDER BY chunk',
      'gw_batch_outcome WHERE batch_id = $1 ORDER BY idx',
      'gw_batch_result WHERE batch_id = $1 ORDER BY chunk',
      'gw_batch_input WHERE batch_id = $1 ORDER BY upto',
      'gw_order_claim WHERE batch_id = $1 ORDER BY order_key',
    ].map((from) => query(`SELECT * FROM ${from}`, [batch])),
  );
  // Chunk leases are renewed by nobody once their worker is dead; their columns do not move. The intake lease is
  // coordination, not the batch: a refused resume may take the dead process's over and hand it back.
  for (const row of rows[0]!) {
    delete row.intake_holder;
    delete row.intake_until;
  }
  return JSON.stringify(rows);
}

describe("gw batch --ledger --resume with a file that is not the batch's own", () => {
  const gateway = (flags: string[]) => ['--base-url', sandbox.url, '--sandbox-defaults', '--reconcile', 'sandbox', '--concurrency', '1', ...flags];

  it('killed during intake: every wrong file refused before any send; the right one finishes the batch, each order once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-input-ledger-'));
    const { orders, wrong } = await orderFiles(dir);
    const batch = 'killed-in-intake';
    // The intake's second statement (orders from #50 on) waits in the database: the batch is caught with its first
    // range taken in and the rest not, as a kill in the middle of a long intake leaves it.
    await query(
      `CREATE FUNCTION gw_test_hold_intake() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.batch_id = '${batch}' AND NEW.from_idx >= 50 THEN PERFORM pg_sleep(60); END IF; RETURN NEW; END $$`,
    );
    await query('CREATE TRIGGER gw_test_hold_intake BEFORE INSERT ON gw_batch_input FOR EACH ROW EXECUTE FUNCTION gw_test_hold_intake()');
    const flags = gateway(['--ledger', ledger, '--batch', batch, '--lease-ms', '1500', '--timeout-ms', '1000', '--send-margin-ms', '200']);
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 300 } });
    const run = started(['batch', 'capture', 'a.csv', ...flags], dir);
    await until(async () => (await query("SELECT 1 FROM pg_stat_activity WHERE wait_event = 'PgSleep'")).length > 0, 'the intake to hold');
    run.kill();
    await run.exited;
    await query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event = 'PgSleep'");
    await query('DROP TRIGGER gw_test_hold_intake ON gw_batch_input');
    sandbox.faults.setRules({});
    const [mark] = await query<{ intake_next: string; sealed: boolean }>('SELECT intake_next, sealed FROM gw_batch WHERE id = $1', [batch]);
    expect(mark).toEqual({ intake_next: '50', sealed: false });
    await sleep(1_600); // the dead worker's lease ends, so the store stands still while the wrong files are tried

    await wrongFilesRefused(dir, wrong, flags, () => ledgerState(batch));
    await rightFileFinishes(dir, orders, flags);
  });

  it('killed after its intake (all orders taken in, some sent): every wrong file refused before any send; the right one finishes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-input-ledger-sealed-'));
    const { orders, wrong } = await orderFiles(dir);
    const batch = 'killed-after-intake';
    const flags = gateway(['--ledger', ledger, '--batch', batch, '--lease-ms', '1500', '--timeout-ms', '1000', '--send-margin-ms', '200']);
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 300 } });
    const run = started(['batch', 'capture', 'a.csv', ...flags], dir);
    await until(async () => (await query<{ sealed: boolean }>('SELECT sealed FROM gw_batch WHERE id = $1', [batch]))[0]?.sealed === true, 'the intake to end');
    run.kill();
    await run.exited;
    sandbox.faults.setRules({});
    expect(captures()).toBeGreaterThan(0);
    await sleep(1_600); // the dead worker's lease (1500 ms) ends: its passing is the condition, nothing to observe

    await wrongFilesRefused(dir, wrong, flags, () => ledgerState(batch));
    await rightFileFinishes(dir, orders, flags);
  });
});

describe("gw batch --journal --resume with a file that is not the batch's own", () => {
  for (const [when, reached] of [
    ['during intake', (text: string) => text.includes('"type":"input","range"') && !text.includes('"sealed"')],
    ['after intake', (text: string) => text.includes('"sealed"')],
  ] as const) {
    it(`killed ${when}: every wrong file refused before any send; the right one finishes the batch, each order once`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gw-input-journal-'));
      const { orders, wrong } = await orderFiles(dir);
      const journal = join(dir, 'a.journal.jsonl');
      const flags = ['--base-url', sandbox.url, '--sandbox-defaults', '--reconcile', 'sandbox', '--concurrency', '1', '--journal', 'a.journal.jsonl'];
      sandbox.faults.setRules({ '/v1/capture': { latencyMs: 300 } });
      sandbox.throttle.set({}); // a quota with no limit: it counts the requests in flight, which the wait below reads
      const run = started(['batch', 'capture', 'a.csv', ...flags], dir);
      await until(() => existsSync(journal) && reached(readFileSync(journal, 'utf8')), `the journal ${when}`);
      run.kill();
      await run.exited;
      sandbox.faults.setRules({});
      // The killed run's request in flight lands (answered to nobody) before the store is read.
      await until(() => sandbox.throttle.stats().accounts.every((a) => a.inFlight === 0), "the killed run's request in flight to land");
      sandbox.throttle.set(null);
      expect(readFileSync(journal, 'utf8')).not.toContain('"type":"end"');

      // Its complete lines (a kill can tear the last one, which a resume cuts off: it never counted).
      const lines = () => readFileSync(journal, 'utf8').replace(/[^\n]*$/, '');
      await wrongFilesRefused(dir, wrong, flags, async () => lines());
      await rightFileFinishes(dir, orders, flags);
    });
  }
});
