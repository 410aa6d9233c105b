import type { CliTelemetry } from './start-telemetry.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Flushes telemetry on Ctrl-C or SIGTERM where the running command does not handle the signal itself (`gw call`, a
 * batch's SIGTERM), then dies of the signal as it would have. A command that handles it (a batch's Ctrl-C stops it as
 * resumable; the servers stop) ends normally, and its telemetry is flushed at exit. Returns the function that removes
 * the handlers.
 */
export function flushOnSignal(telemetry: CliTelemetry, signals: NodeJS.Process = process): () => void {
  const handlers = new Map<NodeJS.Signals, () => void>();
  const remove = () => {
    for (const [signal, handler] of handlers) signals.removeListener(signal, handler);
  };
  for (const signal of SIGNALS) {
    const handler = () => {
      if (signals.listenerCount(signal) > 1) return; // the command's own handler stops it cleanly
      void telemetry.shutdown().finally(() => {
        remove();
        signals.kill(signals.pid, signal);
      });
    };
    handlers.set(signal, handler);
    signals.on(signal, handler);
  }
  return remove;
}
