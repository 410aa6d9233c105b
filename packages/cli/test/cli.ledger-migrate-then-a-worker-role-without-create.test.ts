// The ledger's owner migrates it with `gw ledger migrate --role gw_worker` and runs exactly the GRANT lines it prints;
// the worker role, which may not create anything (PostgreSQL 15 gives PUBLIC no CREATE on schema public), then runs a
// fleet batch (a coordinator and a worker, real processes, the coordinator SIGKILLed part way) that `--resume` finishes,
// every order captured once. The same role on a database never migrated, or a role short of one grant, is stopped
// (exit 2) before anything is sent, told what to run or what it lacks.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LEDGER_MIGRATIONS, ledgerGrants } from '@gw/batch';
import type { Sandbox } from '@gw/sandbox';
import type { CaptureOrder } from '@gw/test-support';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { EXIT_CODES } from '../src/index.ts';
import { gw } from './io.ts';
import { authorisedOrdersFile, sandboxAndLedgerForFile } from './sandbox-harness.ts';

/** The ledger's latest migration, from @gw/batch's own list. */
const LATEST = Math.max(...LEDGER_MIGRATIONS.map((m) => m.version));

const BIN = join(import.meta.dirname, '../src/bin.ts');
const ORDERS = 500;
/** The capture spec's chunk (one request carries 50 orders): the intake's first statement takes orders #0-#49 in, its second those from #50 on. */
const FIRST_INTAKE = 50;
const MIGRATED = 'cli_roles_migrated';
const NEVER_MIGRATED = 'cli_roles_never_migrated';

let sandbox: Sandbox;
let superuser: string;
sandboxAndLedgerForFile(NEVER_MIGRATED, async (started) => {
  sandbox = started.sandbox;
  superuser = started.cluster.url;
  // A plain owner (not a superuser) of the database it migrates, and the worker role: LOGIN and nothing else.
  await sql(superuser, 'CREATE ROLE gw_owner LOGIN');
  await sql(superuser, `CREATE DATABASE ${MIGRATED} OWNER gw_owner`);
  await sql(superuser, 'CREATE ROLE gw_worker LOGIN');
});

/** `role`'s URL of database `db` in the file's cluster (trust auth: no password). */
function urlAs(role: string, db: string): string {
  const url = new URL(superuser);
  url.username = role;
  url.pathname = `/${db}`;
  return url.toString();
}

/** Runs one statement at `url` (a role on a database) and returns its rows. */
async function sql<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Capture requests the sandbox received (each carries a chunk of orders). */
const captures = () => sandbox.state.requests.filter((r) => r.path === '/v1/capture').length;

/** The gateway and the batch's timing: short leases, so a killed process's chunks and intake are taken over soon. */
const gateway = (ledger: string, batch: string) => [
  '--base-url',
  sandbox.url,
  '--sandbox-defaults',
  '--reconcile',
  'sandbox',
  '--concurrency',
  '2',
  '--ledger',
  ledger,
  '--batch',
  batch,
  '--lease-ms',
  '1500',
  '--timeout-ms',
  '1000',
  '--send-margin-ms',
  '200',
];

/** Authorises `count` orders and writes them as `dir/orders.csv`. */
const ordersFile = (dir: string, count: number, prefix: string): Promise<CaptureOrder[]> =>
  authorisedOrdersFile(sandbox, join(dir, 'orders.csv'), count, { prefix, amount: '4.00' });

/** `gw ledger migrate` as the owner at `owner` for `role`: exit 0, stdout only GRANT lines (returned), what it did on stderr. */
async function migrateAsOwner(owner: string, role: string): Promise<{ grants: string[]; said: string }> {
  const run = await gw(['ledger', 'migrate', '--ledger', owner, '--role', role]);
  expect(run.status, run.err).toBe(EXIT_CODES.ok);
  const grants = run.out.split('\n').filter((line) => line !== '');
  expect(run.out.endsWith('\n')).toBe(true);
  expect(grants.length).toBeGreaterThan(0);
  for (const line of grants) expect(line).toMatch(/^GRANT [^;]+ TO [a-z_]+;$/);
  expect(grants).toEqual(ledgerGrants(role));
  return { grants, said: run.err };
}

/** Executes exactly `lines` as the owner, one statement each, and nothing else. */
async function grantAsOwner(owner: string, lines: readonly string[]): Promise<void> {
  for (const line of lines) await sql(owner, line);
}

/** `gw args` as a process of its own in `cwd` (to be killed with SIGKILL): its exit code and what it printed. */
function started(args: string[], cwd: string): { kill: () => void; exited: Promise<number | null>; output: () => string } {
  const child = spawn(process.execPath, ['--conditions=@gw/source', BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c) => (output += String(c)));
  child.stderr.on('data', (c) => (output += String(c)));
  return { kill: () => child.kill('SIGKILL'), exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))), output: () => output };
}

async function until(check: () => boolean | Promise<boolean>, what: string, seen: () => string = () => ''): Promise<void> {
  const end = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; ${seen()}`);
    await sleep(5);
  }
}

/**
 * The intake's statements from order #`from` on wait in the database (a trigger, made by the superuser) until
 * released: a coordinator killed while one waits leaves its batch with part of its input taken in, as a kill in the
 * middle of a long intake does. Returns the release: the waiting statement ended, the trigger gone.
 */
async function holdIntakeFrom(db: string, batch: string, from: number): Promise<() => Promise<void>> {
  const admin = urlAs('postgres', db);
  await sql(
    admin,
    `CREATE FUNCTION gw_test_hold_intake() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.batch_id = '${batch}' AND NEW.from_idx >= ${from} THEN PERFORM pg_sleep(60); END IF; RETURN NEW; END $$`,
  );
  await sql(admin, 'CREATE TRIGGER gw_test_hold_intake BEFORE INSERT ON gw_batch_input FOR EACH ROW EXECUTE FUNCTION gw_test_hold_intake()');
  // The waiting statement ends first: it holds gw_batch_input against the DROP TRIGGER.
  return async () => {
    await sql(admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event = 'PgSleep'");
    await sql(admin, 'DROP TRIGGER gw_test_hold_intake ON gw_batch_input');
    await sql(admin, 'DROP FUNCTION gw_test_hold_intake()');
  };
}

const intakeHeld = async (db: string) => (await sql(urlAs('postgres', db), "SELECT 1 FROM pg_stat_activity WHERE wait_event = 'PgSleep'")).length > 0;

/** A batch on the ledger as `role` that must stop before sending: exit 2, its stderr (a gw: GW_CONFIG line), nothing captured. */
async function refusedBeforeSending(role: string, db: string, batch: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-roles-refused-'));
  await ordersFile(dir, 5, 'REF');
  const before = captures();
  const run = await gw(['batch', 'capture', 'orders.csv', ...gateway(urlAs(role, db), batch)], { cwd: dir });
  expect(run.status, run.err).toBe(EXIT_CODES.usage);
  expect(run.err).toMatch(/^gw: GW_CONFIG: /);
  expect(run.err).toContain('nothing was sent');
  expect(captures()).toBe(before);
  return run.err;
}

describe('gw ledger migrate, then a worker role without CREATE', () => {
  it('the owner migrates and runs the printed GRANT lines; the worker role, which cannot create a table, runs a fleet batch whose killed coordinator --resume replaces, each order captured once', async () => {
    const owner = urlAs('gw_owner', MIGRATED);
    const worker = urlAs('gw_worker', MIGRATED);
    const { grants, said } = await migrateAsOwner(owner, 'gw_worker');
    expect(said).toContain(`migrated from 0 to ${LATEST}`);
    expect(said).not.toContain('GRANT');
    await grantAsOwner(owner, grants);
    await expect(sql(worker, 'CREATE TABLE x (a int)')).rejects.toMatchObject({ code: '42501', message: expect.stringMatching(/permission denied/) });

    const dir = mkdtempSync(join(tmpdir(), 'gw-roles-fleet-'));
    const orders = await ordersFile(dir, ORDERS, 'ROLE');
    const batch = 'fleet-as-worker-role';
    const flags = gateway(worker, batch);
    const release = await holdIntakeFrom(MIGRATED, batch, FIRST_INTAKE);
    sandbox.faults.setRules({ '/v1/capture': { latencyMs: 40 } });
    const before = captures();
    const coordinator = started(['batch', 'capture', 'orders.csv', ...flags], dir);
    const joined = started(['batch', 'worker', ...flags], dir);
    onTestFinished(() => (coordinator.kill(), joined.kill()));
    await until(
      async () => captures() > before && (await intakeHeld(MIGRATED)),
      'a capture to reach the sandbox while the intake waits',
      () => `${captures()} captures; coordinator: ${coordinator.output()}; worker: ${joined.output()}`,
    );
    coordinator.kill();
    expect(await coordinator.exited).toBe(null);
    await release();
    sandbox.faults.setRules({});
    const [mark] = await sql<{ intake_next: string; sealed: boolean }>(worker, 'SELECT intake_next, sealed FROM gw_batch WHERE id = $1', [batch]);
    expect(mark).toEqual({ intake_next: String(FIRST_INTAKE), sealed: false });

    const resumed = await gw(['batch', 'capture', 'orders.csv', '--resume', ...flags], { cwd: dir });
    expect(resumed.err).toBe('');
    expect(resumed.status).toBe(EXIT_CODES.ok);
    expect(await joined.exited, joined.output()).toBe(0);
    expect(joined.output()).toContain('this worker: ');
    expect(readFileSync(join(dir, 'orders.capture.results.csv'), 'utf8').match(/,succeeded,/g)).toHaveLength(ORDERS);
    const applied = sandbox.state.appliedCounts('capture');
    expect(orders.filter((o) => applied.get(o.transaction_id) !== 1)).toEqual([]);
  });

  it('the same role on a database never migrated exits 2 naming gw ledger migrate, sending nothing and creating no table', async () => {
    const err = await refusedBeforeSending('gw_worker', NEVER_MIGRATED, 'never-migrated');
    expect(err).toContain(`the PostgreSQL ledger's database is at migration 0 of ${LATEST} and this role may not create tables`);
    expect(err).toContain('gw ledger migrate --ledger "$GW_LEDGER_URL"');
    const [tables] = await sql<{ batch: string | null; migrations: string | null }>(
      urlAs('postgres', NEVER_MIGRATED),
      "SELECT to_regclass('gw_batch')::text AS batch, to_regclass('gw_ledger_migration')::text AS migrations",
    );
    expect(tables).toEqual({ batch: null, migrations: null });
  });

  // Each role gets the printed grants but one (a line skipped, or a privilege revoked after), and is told what it lacks.
  // Skipping `GRANT USAGE ON SCHEMA public` takes nothing away: PUBLIC has that on public.
  const short: { role: string; without: string; skip?: RegExp; revoke?: string; named: string }[] = [
    {
      role: 'gw_short_pace',
      without: 'UPDATE on gw_batch_pace_report (revoked)',
      revoke: 'REVOKE UPDATE ON gw_batch_pace_report FROM gw_short_pace',
      named: 'this role may not use gw_batch_pace_report (UPDATE)',
    },
    {
      role: 'gw_short_sequence',
      without: 'the GRANT line for the chunk sequence',
      skip: /ON SEQUENCE public\.gw_batch_chunk_seq /,
      named: 'this role may not use gw_batch_chunk_seq (USAGE)',
    },
    {
      role: 'gw_short_migrations',
      without: 'the GRANT line for the migrations table',
      skip: /ON public\.gw_ledger_migration /,
      named: 'this role may not use gw_ledger_migration',
    },
    {
      role: 'gw_short_tables',
      without: "the GRANT line for the ledger's tables",
      skip: /ON public\.gw_batch, /,
      named: 'this role may not use gw_batch (SELECT), gw_batch_chunk (SELECT)',
    },
  ];
  for (const { role, without, skip, revoke, named } of short) {
    it(`a role with the printed grants but ${without} exits 2 before sending, naming what it lacks`, async () => {
      const owner = urlAs('gw_owner', MIGRATED);
      await sql(superuser, `CREATE ROLE ${role} LOGIN`);
      const { grants } = await migrateAsOwner(owner, role);
      const kept = grants.filter((line) => !skip?.test(line));
      expect(kept).toHaveLength(skip ? grants.length - 1 : grants.length);
      await grantAsOwner(owner, [...kept, ...(revoke ? [revoke] : [])]);
      const err = await refusedBeforeSending(role, MIGRATED, `short-${role}`);
      expect(err).toContain(named);
      expect(err).toContain('gw ledger migrate --role NAME');
    });
  }
});
