import { EventEmitter } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
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

/** How a test runs gw: its input, environment and folder; `terminal` makes standard error a terminal. */
export interface GwRunOptions {
  readonly stdin?: string;
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  readonly terminal?: boolean;
  /** Ctrl-C (SIGINT) as soon as the output printed so far satisfies this. */
  readonly interruptWhen?: (out: string) => boolean;
}

/** What one run of gw gave: its exit status and what it printed. */
export interface GwRun {
  readonly status: number;
  readonly out: string;
  readonly err: string;
}

/** Runs `gw args` in this process with captured output: its exit status and what it printed. */
export async function gw(args: string[], options: GwRunOptions = {}): Promise<GwRun> {
  const c = capturedIo(options);
  if (options.terminal) Object.assign(c.io.stderr, { isTTY: true });
  const { interruptWhen } = options;
  const watch = interruptWhen ? setInterval(() => interruptWhen(c.out()) && (clearInterval(watch!), c.signals.emit('SIGINT')), 1) : null;
  try {
    const status = await runCli(args, c.io, c.signals);
    return { status, out: c.out(), err: c.err() };
  } finally {
    if (watch) clearInterval(watch);
  }
}

/** A gw command left running (sandbox, listen, proxy): its captured output, its address, its exit, and Ctrl-C. */
export interface StartedGw {
  readonly c: ReturnType<typeof capturedIo>;
  /** The first group of the `ready` pattern in the output (undefined if it never showed). */
  readonly url: string;
  readonly exit: Promise<number>;
  /** Ctrl-C, then the exit status. */
  stop(): Promise<number>;
}

/** Starts `gw args` in this process; resolves once its output matches `ready`, it exits, or 10 s pass. */
export async function gwStarted(args: string[], ready: RegExp, options: { env?: Record<string, string>; cwd?: string } = {}): Promise<StartedGw> {
  const c = capturedIo(options);
  const exit = runCli(args, c.io, c.signals);
  let exited = false;
  void exit.then(() => (exited = true));
  const end = Date.now() + 10_000;
  while (!ready.test(c.out()) && !exited && Date.now() < end) await sleep(20);
  return { c, url: ready.exec(c.out())?.[1]!, exit, stop: async () => (c.signals.emit('SIGINT'), exit) };
}
