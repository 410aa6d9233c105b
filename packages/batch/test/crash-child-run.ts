// Runs test/fixtures/crash-child.ts (a batch that SIGKILLs itself at the stage its environment names, or resumes) in a
// process of its own, and gives back how it ended and what it printed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const child = join(import.meta.dirname, 'fixtures/crash-child.ts');

/** How a crash child ended: its exit code or signal, and its output. */
export interface CrashChildRun {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the crash child with these environment variables added; resolves when it exits (killed or not). */
export function runCrashChild(env: Record<string, string>): Promise<CrashChildRun> {
  return startCrashChild(env).ended;
}

/** Starts the crash child: its pid (to signal it) and how it ended. */
export function startCrashChild(env: Record<string, string>, script = child): { pid: number; ended: Promise<CrashChildRun> } {
  const p = spawn(process.execPath, ['--conditions=@gw/source', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const ended = new Promise<CrashChildRun>((resolve) => {
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c) => (stdout += c));
    p.stderr.on('data', (c) => (stderr += c));
    p.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { pid: p.pid!, ended };
}
