// Runs test tasks a few at a time (two on CI's two cores: vitest runs one worker per task), always starting the ready
// task with the longest expected chain (its own time plus the tasks waiting on it), so the long runs start first and
// the short ones fill in at the end instead of one long run being the tail while the other lane idles. Every line a
// task prints is prefixed with its id; a failing task does not stop the others.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestTask } from './test-tasks.ts';

export interface TaskResult {
  readonly id: string;
  /** Seconds since the queue started. */
  readonly start: number;
  readonly end: number;
  readonly code: number;
}

/** Runs `tasks` at most `lanes` at a time in dependency order, longest chain first; resolves with each task's result. */
export async function runQueue(tasks: readonly TestTask[], lanes: number): Promise<TaskResult[]> {
  const chain = chainLengths(tasks);
  const ids = new Set(tasks.map((task) => task.id));
  const pending = new Map(tasks.map((task) => [task.id, task]));
  const done = new Map<string, TaskResult>();
  const running = new Set<Promise<void>>();
  const t0 = performance.now();
  const seconds = () => Math.round((performance.now() - t0) / 100) / 10;
  while (pending.size > 0 || running.size > 0) {
    const ready = [...pending.values()].filter((task) => task.after.every((id) => done.has(id) || !ids.has(id)));
    ready.sort((a, b) => chain.get(b.id)! - chain.get(a.id)!);
    for (const task of ready.slice(0, lanes - running.size)) {
      pending.delete(task.id);
      const start = seconds();
      console.log(`queue: ${start} s: start ${task.id} (expected ${task.estimate} s)`);
      const run: Promise<void> = runTask(task).then((code) => {
        done.set(task.id, { id: task.id, start, end: seconds(), code });
        console.log(`queue: ${seconds()} s: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} ${task.id}`);
        running.delete(run);
      });
      running.add(run);
    }
    if (running.size === 0 && pending.size > 0) throw new Error(`test queue: no task can start: ${[...pending.keys()].join(', ')}`);
    await Promise.race(running);
  }
  return tasks.map((task) => done.get(task.id)!);
}

/** Each task's expected time plus the longest chain of tasks that wait on it. */
function chainLengths(tasks: readonly TestTask[]): Map<string, number> {
  const lengths = new Map<string, number>();
  const length = (task: TestTask): number => {
    const known = lengths.get(task.id);
    if (known !== undefined) return known;
    const waiting = tasks.filter((other) => other.after.includes(task.id));
    const total = task.estimate + Math.max(0, ...waiting.map(length));
    lengths.set(task.id, total);
    return total;
  };
  for (const task of tasks) length(task);
  return lengths;
}

/** `pnpm run <script>` in the task's package, output prefixed with the task's id. */
function runTask(task: TestTask): Promise<number> {
  const [command, args] = pnpmRun(task.script);
  const child = spawn(command, args, { cwd: task.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => process.stdout.write(`${task.id}: ${line}\n`));
  }
  return new Promise((resolve) => {
    child.on('error', (error) => {
      console.log(`${task.id}: could not start: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** The pnpm running this script (`pnpm test:all`), else the pinned one through npx (`pnpm exec node scripts/...`). */
function pnpmRun(script: string): [string, string[]] {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath)) return [process.execPath, [execPath, 'run', script]];
  const root = join(import.meta.dirname, '..');
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { packageManager: string };
  return ['npx', ['-y', packageManager, 'run', script]];
}
