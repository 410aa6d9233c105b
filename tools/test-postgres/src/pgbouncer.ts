// PgBouncer in front of a test cluster: Debian's pgbouncer run as postgres, trust auth, 127.0.0.1 on a free port.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { freePort, postgresTempDir, runAsPostgres } from './host.ts';

/** A running PgBouncer: its port; `urlFor` turns a cluster URL into the same URL through PgBouncer; `stop` kills it and removes its files. */
export interface PgBouncer {
  readonly port: number;
  readonly urlFor: (databaseUrl: string) => string;
  readonly stop: () => void;
}

/** How PgBouncer pools: `poolMode` (default transaction), `poolSize` server connections per database and user (default 4), the `users` it lets in (default postgres). */
export interface PgBouncerOptions {
  readonly poolMode?: 'transaction' | 'session' | 'statement';
  readonly poolSize?: number;
  readonly users?: readonly string[];
}

const START_TIMEOUT_MS = 10_000;

function pgBouncerBin(): string | undefined {
  const dirs = ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin', ...(process.env.PATH ?? '').split(delimiter)];
  return dirs.map((d) => join(d, 'pgbouncer')).find((p) => existsSync(p));
}

/** Whether the pgbouncer program is installed. */
export function pgBouncerInstalled(): boolean {
  return pgBouncerBin() !== undefined;
}

/** The ini for a PgBouncer in `dir` on `port` in front of the server at `target`. */
function config(dir: string, port: number, target: URL, options: PgBouncerOptions): string {
  return (
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      `pool_mode = ${options.poolMode ?? 'transaction'}`,
      `default_pool_size = ${options.poolSize ?? 4}`,
      'max_client_conn = 400',
      // prefer: TLS to a cluster started with `tls` (its pg_hba rejects TCP without it), plain to one without.
      'server_tls_sslmode = prefer',
      `logfile = ${join(dir, 'pgb.log')}`,
      `pidfile = ${join(dir, 'pgb.pid')}`,
      'ignore_startup_parameters = extra_float_digits,options',
    ].join('\n') + '\n'
  );
}

/** Starts PgBouncer in front of the cluster whose admin URL is `target.url`; resolves once it accepts TCP connections. */
export async function startPgBouncer(target: { url: string }, options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const bin = pgBouncerBin();
  if (bin === undefined) throw new Error('PgBouncer is not installed (no pgbouncer program): apt-get install -y pgbouncer');
  const dir = postgresTempDir('gw-pgb-');
  const port = await freePort();
  const users = options.users ?? ['postgres'];
  writeFileSync(join(dir, 'userlist.txt'), users.map((u) => `"${u.replaceAll('"', '""')}" ""\n`).join(''));
  writeFileSync(join(dir, 'pgbouncer.ini'), config(dir, port, new URL(target.url), options));
  const stop = () => stopPgBouncer(dir);
  try {
    runAsPostgres(bin, ['-d', join(dir, 'pgbouncer.ini')]);
    await untilListening(port, START_TIMEOUT_MS);
  } catch (cause) {
    const log = logTail(dir);
    stop();
    throw new Error(`PgBouncer did not come up on 127.0.0.1:${port}: ${(cause as Error).message}\n--- the tail of its log ---\n${log}`, { cause });
  }
  return { port, urlFor: (databaseUrl) => throughPort(databaseUrl, port), stop };
}

/** `databaseUrl` with its host and port replaced by 127.0.0.1:`port`. */
function throughPort(databaseUrl: string, port: number): string {
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
}

/** Resolves once something accepts a TCP connection on 127.0.0.1:`port`; rejects after `timeoutMs`. */
async function untilListening(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(port))) {
    if (Date.now() > deadline) throw new Error(`nothing accepted a connection within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => (socket.destroy(), resolve(false)));
  });
}

function logTail(dir: string, lines = 20): string {
  const file = join(dir, 'pgb.log');
  return existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no log)';
}

/** SIGTERM to the PgBouncer whose pidfile is in `dir`, SIGKILL if it is still there after 2 s; then removes `dir`. */
function stopPgBouncer(dir: string): void {
  const pidFile = join(dir, 'pgb.pid');
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : NaN;
  if (Number.isInteger(pid) && pid > 0 && signal(pid, 'SIGTERM')) {
    const deadline = Date.now() + 2_000;
    while (signal(pid, 0) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    signal(pid, 'SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
}

/** Sends `sig` to `pid`; false if there is no such process. */
function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}
