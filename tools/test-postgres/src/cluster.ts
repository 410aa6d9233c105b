// A throwaway PostgreSQL cluster: a temp dir owned by postgres, trust auth, 127.0.0.1 on a free port; TLS on request.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, postgresTempDir, runAsPostgres, RUNUSER } from './host.ts';
import { installServerTls, makeTlsFiles, type ClusterTls } from './tls.ts';

/** The newest installed PostgreSQL's programs (Debian's `postgresql` package puts them under /usr/lib/postgresql/<major>/bin). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0) throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install -y postgresql');
  return join(root, majors[0]!, 'bin');
}

const BIN = postgresBin();

/** Runs a PostgreSQL program as the postgres user (initdb refuses root). */
function asPostgres(command: string, args: string[]): void {
  runAsPostgres(`${BIN}/${command}`, args);
}

/** A running cluster: its admin URL; `halt` stops the server at once (as a crash or an outage), `restart` brings it back on the same files and port; `stop` stops it and removes its files. With TLS, `tls` names the CA that signed the server's certificate and one that did not. */
export interface Cluster {
  readonly url: string;
  readonly halt: () => void;
  readonly restart: () => void;
  readonly stop: () => void;
  readonly tls?: ClusterTls;
}

/** How to start a cluster: `tls` turns on TLS and has TCP connections from 127.0.0.1 use it. */
export interface ClusterOptions {
  readonly tls?: boolean;
}

/** Starts a cluster; `url` reaches its `postgres` database as the superuser. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const dir = postgresTempDir('gw-pg-');
  const port = await freePort();
  asPostgres('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const tls = options.tls ? makeTlsFiles() : undefined;
  // fsync off: a throwaway cluster for tests; what is measured is the ledger's round trips, not the disk.
  let serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  if (tls) serverOptions += ` ${installServerTls(dir, tls)}`;
  const start = () => asPostgres('pg_ctl', ['-D', dir, '-o', serverOptions, '-w', '-l', join(dir, 'log'), 'start']);
  const halt = () => void spawnSync(RUNUSER, ['-u', 'postgres', '--', `${BIN}/pg_ctl`, '-D', dir, '-m', 'immediate', '-w', 'stop'], { stdio: 'pipe' });
  start();
  const stop = () => {
    halt();
    rmSync(dir, { recursive: true, force: true });
    if (tls) rmSync(tls.dir, { recursive: true, force: true });
  };
  const cluster = { url: `postgres://postgres@127.0.0.1:${port}/postgres`, halt, restart: start, stop };
  return tls ? { ...cluster, tls: { caFile: tls.caFile, wrongCaFile: tls.wrongCaFile } } : cluster;
}

/** Creates database `name` in the cluster at `admin` (with `createdb`, as postgres); returns its URL. */
export async function createDatabase(admin: string, name: string): Promise<string> {
  const { port } = new URL(admin);
  execFileSync(RUNUSER, ['-u', 'postgres', '--', `${BIN}/createdb`, '-h', '127.0.0.1', '-p', port, '-U', 'postgres', name], { stdio: 'pipe' });
  return admin.replace(/\/postgres$/, `/${name}`);
}
