// The sandbox in a process of its own (sandbox-server.ts), as the benches measure it: started, its port read from the
// line it prints, and stopped with SIGTERM when the bench process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { request } from 'undici';

/** A running sandbox process and its address. */
export interface SandboxProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
}

/** Starts bench/sandbox/sandbox-server.ts (extra environment variables added); it is stopped when this process exits. */
export async function startSandboxProcess(env: Record<string, string> = {}): Promise<SandboxProcess> {
  const child = spawn(process.execPath, ['--conditions=@gw/source', join(import.meta.dirname, 'sandbox-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  process.on('exit', () => child.kill('SIGTERM'));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /PORT (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the sandbox process exited with ${code} before it listened`)));
  });
  return { child, port, url: `http://127.0.0.1:${port}` };
}

/** Sets the latency of the sandbox at `url` on /v1/capture through its control API (0: none), so only captures wait. */
export async function setCaptureLatency(url: string, ms: number): Promise<void> {
  const res = await request(`${url}/sandbox/api/faults`, {
    method: 'PUT',
    body: JSON.stringify(ms > 0 ? { '/v1/capture': { latencyMs: ms } } : {}),
    headers: { 'content-type': 'application/json' },
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`setting the sandbox's latency: ${res.statusCode} ${text}`);
}
