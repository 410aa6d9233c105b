// Runs a command without blocking this process (the registry answers from the same event loop) and collects its output.
import { spawn } from 'node:child_process';

/** The outcome of one command. */
export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Spawns `command args` in `cwd`; rejects with its output when it exits non-zero (unless `allowFailure`). */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; allowFailure?: boolean },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // Its own process group, so that a time-out ends everything it started (turbo, tsc, npm), not only itself.
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const result = { code, stdout, stderr };
      if (code !== 0 && !options.allowFailure) reject(new Error(`${command} ${args.join(' ')} exited ${code}\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`));
      else resolve(result);
    });
  });
}
