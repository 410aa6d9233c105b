// Another process's CPU time, read from /proc/PID/stat (Linux): the sandbox's and PostgreSQL's share of a batch.
import { readFileSync } from 'node:fs';

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
