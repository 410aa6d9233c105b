// A throwaway PostgreSQL cluster: a temp dir owned by postgres, trust auth, 127.0.0.1 on a free port.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The newest installed PostgreSQL's programs (Debian's `postgresql` package puts them under /usr/lib/postgresql/<major>/bin). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (majors.length === 0) throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install -y postgresql');
  return join(root, majors[0]!, 'bin');
}

const BIN = postgresBin();

/** `runuser` by its full path: it lives in /usr/sbin, which a CI's PATH may leave out. */
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => existsSync(p)) ?? 'runuser';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Runs a PostgreSQL program as the postgres user (initdb refuses root). */
function asPostgres(command: string, args: string[]): void {
  execFileSync(RUNUSER, ['-u', 'postgres', '--', `${BIN}/${command}`, ...args], { stdio: 'pipe' });
}

/** A running cluster: its admin URL; `halt` stops the server at once (as a crash or an outage), `restart` brings it back on the same files and port; `stop` stops it and removes its files. */
export interface Cluster {
  readonly url: string;
  readonly halt: () => void;
  readonly restart: () => void;
  readonly stop: () => void;
}

/** Starts a cluster; `url` reaches its `postgres` database as the superuser. */
export async function startCluster(): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-pg-'));
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  chownSync(dir, id('-u'), id('-g'));
  const port = await freePort();
  asPostgres('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  // fsync off: a throwaway cluster for tests; what is measured is the ledger's round trips, not the disk.
  const start = () => asPostgres('pg_ctl', ['-D', dir, '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, '-w', '-l', join(dir, 'log'), 'start']);
  const halt = () => void spawnSync(RUNUSER, ['-u', 'postgres', '--', `${BIN}/pg_ctl`, '-D', dir, '-m', 'immediate', '-w', 'stop'], { stdio: 'pipe' });
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    halt,
    restart: start,
    stop: () => {
      halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates database `name` in the cluster at `admin` (with `createdb`, as postgres); returns its URL. */
export async function createDatabase(admin: string, name: string): Promise<string> {
  const { port } = new URL(admin);
  execFileSync(RUNUSER, ['-u', 'postgres', '--', `${BIN}/createdb`, '-h', '127.0.0.1', '-p', port, '-U', 'postgres', name], { stdio: 'pipe' });
  return admin.replace(/\/postgres$/, `/${name}`);
}
