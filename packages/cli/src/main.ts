import { processIo } from './io.ts';
import { runCli } from './program.ts';
import { flushOnSignal } from './telemetry/flush-on-signal.ts';
import { startsTelemetry } from './telemetry/otel-env.ts';
import { startTelemetry } from './telemetry/start-telemetry.ts';

/**
 * Runs `gw` with the process's arguments and streams; resolves to the exit status. When OTEL_* asks for it (and the
 * command is one that calls or serves a gateway), the OpenTelemetry SDK (imported only then) runs around the command
 * and is flushed at its end, whatever the end: a result, a typed stop, Ctrl-C.
 */
export async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (!startsTelemetry(argv, process.env)) return runCli(argv, processIo());
  const telemetry = await startTelemetry(process.env);
  const removeSignalHandlers = flushOnSignal(telemetry);
  try {
    return await runCli(argv, processIo());
  } finally {
    removeSignalHandlers();
    await telemetry.shutdown();
  }
}
