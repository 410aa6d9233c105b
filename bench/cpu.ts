// Other processes' CPU time, read from /proc (Linux): a server's own CPU per request, the sandbox's and PostgreSQL's
// share of a batch.
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/PID/stat after the command name (field 3 on is index 0 on), or null when it cannot be read. */
export function procStat(pid: number | string): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return null;
  }
}

/** User + system CPU time in µs from a procStat reading (utime and stime, in clock ticks of 10 ms). */
export function cpuMicrosOf(fields: readonly string[]): number {
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** A process's CPU time so far, in µs; NaN when /proc cannot be read (not Linux, or the process is gone). */
export function processCpuMicros(pid: number | string | undefined): number {
  const fields = pid === undefined ? null : procStat(pid);
  return fields ? cpuMicrosOf(fields) : Number.NaN;
}

/**
 * A process's CPU time in µs from /proc/PID/schedstat (nanoseconds on a CPU, user and kernel), finer than stat's 10 ms
 * ticks, which made a backend's 200 ms per phase ±5%; stat's ticks where schedstat is missing, NaN when neither reads.
 */
export function preciseCpuMicros(pid: number | string): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    const fields = procStat(pid);
    return fields ? cpuMicrosOf(fields) : Number.NaN;
  }
}

/**
 * CPU of the cluster's processes by role (the postmaster on `port` and its children, from /proc), in µs; `ended`: the
 * processes that have ended (the postmaster's reaped children; a process that ends between two readings counts
 * whole in the second, its share in the first is subtracted). A process ending as it is read has no title: role ''.
 */
export function postgresCpuMicros(port: string): Map<string, number> {
  // A connection whose client closed it is ending (no title, or a zombie until reaped): wait for it to be reaped so
  // its time is in `ended`, not lost between the readings (at most 1 s, 10 ms at a time).
  for (let waited = 0; ; waited++) {
    const reading = readCluster(port);
    if (!reading.ending || waited >= 100) return reading.byRole;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
}

/** One reading of the cluster's CPU by role, and whether one of its processes is ending (not reaped yet). */
function readCluster(port: string): { byRole: Map<string, number>; ending: boolean } {
  let ending = false;
  const read = (pid: string, file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8');
    } catch {
      return null;
    }
  };
  const pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  const master = pids.find((pid) => {
    const cmd = read(pid, 'cmdline')?.replaceAll('\0', ' ') ?? '';
    return cmd.includes(`-p ${port} `) && cmd.includes('postgres');
  });
  const byRole = new Map<string, number>();
  for (const pid of pids) {
    const f = procStat(pid);
    if (!f || (pid !== master && f[1] !== master)) continue;
    // "postgres: USER DATABASE 127.0.0.1(PORT) idle" is a client connection (the ledger's); the others by their title.
    const title = (read(pid, 'cmdline') ?? '').replaceAll('\0', ' ').trim();
    if (pid !== master && (title === '' || f[0] === 'Z' || f[0] === 'X')) ending = true;
    const role =
      pid === master
        ? 'postmaster'
        : /^postgres: \S+ \S+ [\d.:a-f]+\(\d+\)/.test(title)
          ? 'connections'
          : title
              .replace(/^postgres: /, '')
              .split(' ')
              .slice(0, 2)
              .join(' ');
    const us = preciseCpuMicros(pid);
    // Gone between the readings of its stat and its time: it counts in `ended` once reaped.
    if (!Number.isNaN(us)) byRole.set(role, (byRole.get(role) ?? 0) + us);
    // Connections that ended (a batch's pool closes when it returns) count in the postmaster's reaped children's time.
    if (pid === master) byRole.set('ended', (Number(f[13]) + Number(f[14])) * 10_000);
  }
  return { byRole, ending };
}

/** All the cluster's CPU used since `before` (a `postgresCpuMicros` reading), in µs, and by role (a role whose processes ended goes below zero: `ended` has their whole time). */
export function postgresCpuSince(port: string, before: Map<string, number>): { total: number; roles: [string, number][] } {
  const roles = [...postgresCpuMicros(port)].map(([role, us]): [string, number] => [role, us - (before.get(role) ?? 0)]).filter(([, us]) => us !== 0);
  return { total: roles.reduce((n, [, us]) => n + us, 0), roles };
}
