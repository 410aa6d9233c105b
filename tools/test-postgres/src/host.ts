// What the cluster and PgBouncer share on this machine: runuser, the postgres user's temp dirs, a free port.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `runuser` by its full path: it lives in /usr/sbin, which a CI's PATH may leave out. */
export const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => existsSync(p)) ?? 'runuser';

/** Runs `program` as the postgres user (initdb and pgbouncer refuse root). */
export function runAsPostgres(program: string, args: readonly string[]): void {
  execFileSync(RUNUSER, ['-u', 'postgres', '--', program, ...args], { stdio: 'pipe' });
}

/** Gives `path` to the postgres user. */
export function chownToPostgres(path: string): void {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  chownSync(path, id('-u'), id('-g'));
}

/** A new temp dir named `prefix`XXXXXX, owned by the postgres user. */
export function postgresTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chownToPostgres(dir);
  return dir;
}

/** A TCP port on 127.0.0.1 that nothing listened on a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
