import { EventEmitter } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { runCli, type CliIo } from '../src/index.ts';

/** A CliIo whose output is captured as text (not a terminal). */
export function capturedIo(options: { stdin?: string; env?: Record<string, string>; cwd?: string } = {}) {
  let out = '';
  let err = '';
  const stdout = new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) });
  const stderr = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) });
  const io: CliIo = { stdout, stderr, stdin: Readable.from([options.stdin ?? '']), env: options.env ?? {}, cwd: options.cwd ?? process.cwd() };
  return { io, out: () => out, err: () => err, signals: new EventEmitter() };
}

/** Runs `gw args` in `cwd` with captured output: its exit status and what it printed. */
export async function gwIn(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ status: number; out: string; err: string }> {
  const c = capturedIo({ cwd, env });
  const status = await runCli(args, c.io, c.signals);
  return { status, out: c.out(), err: c.err() };
}
