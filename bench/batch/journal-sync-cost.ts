// What one O_DSYNC write of a journal group costs this machine, appended (the file grows: each write also commits the
// new file size) against overwritten in place (a file extended beforehand, as PostgreSQL's WAL segments are): wall
// time, this process's CPU and the whole machine's busy and idle time per write (from /proc/stat, 10 ms ticks; Linux
// only), the two modes alternated in one process. The journal today appends.
//   node --conditions=@gw/source batch/journal-sync-cost.ts [bytes per write=32000] [writes=1500] [rounds=2]
import { constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BYTES = Number(process.argv[2] ?? 32_000);
const WRITES = Number(process.argv[3] ?? 1500);
const ROUNDS = Number(process.argv[4] ?? 2);
const dir = mkdtempSync(join(tmpdir(), 'gw-journal-sync-cost-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const line = `${'x'.repeat(BYTES - 1)}\n`;

/** Machine-wide CPU time so far, in µs: busy (user, system, irq, softirq), idle and iowait. */
function machine(): { busy: number; idle: number; iowait: number } {
  const [user, , system, idle, iowait, irq, softirq] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map((t) => Number(t) * 10_000);
  return { busy: user! + system! + irq! + softirq!, idle: idle!, iowait: iowait! };
}

/** A file opened with O_DSYNC: appended to, or already holding every byte the run will overwrite. */
async function openFor(mode: 'append' | 'overwrite', path: string): Promise<FileHandle> {
  const { O_APPEND, O_CREAT, O_WRONLY, O_DSYNC } = constants;
  if (mode === 'append') return open(path, O_APPEND | O_CREAT | O_WRONLY | O_DSYNC, 0o666);
  const made = await open(path, 'w');
  await made.write(Buffer.alloc(BYTES * WRITES));
  await made.sync();
  await made.close();
  return open(path, O_WRONLY | O_DSYNC);
}

async function run(mode: 'append' | 'overwrite', round: number): Promise<string> {
  const file = await openFor(mode, join(dir, `${mode}-${round}`));
  const before = machine();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < WRITES; i++) await file.write(line, mode === 'append' ? null : i * BYTES, 'utf8');
  const wall = ((performance.now() - started) * 1000) / WRITES;
  const own = process.cpuUsage(cpu);
  const after = machine();
  await file.close();
  const per = (us: number) => (us / WRITES).toFixed(0);
  return `| ${mode} | ${wall.toFixed(0)} | ${per(own.user + own.system)} | ${per(after.busy - before.busy)} | ${per(after.idle - before.idle)} | ${per(after.iowait - before.iowait)} |`;
}

console.log(`${WRITES} O_DSYNC writes of ${BYTES} bytes each, ${ROUNDS} rounds, node ${process.version}; µs per write`);
console.log('| mode | wall | this process CPU | machine busy | machine idle | machine iowait |');
console.log('|---|---:|---:|---:|---:|---:|');
for (let round = 0; round < ROUNDS; round++) for (const mode of ['append', 'overwrite'] as const) console.log(await run(mode, round));
