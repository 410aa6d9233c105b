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
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--conditions=@gw/source', child], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c) => (stdout += c));
    p.stderr.on('data', (c) => (stderr += c));
    p.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
