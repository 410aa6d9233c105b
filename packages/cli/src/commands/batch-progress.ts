import { SingleBar } from 'cli-progress';
import type { BatchProgress, BatchResult } from '@gw/batch';
import type { CliIo } from '../io.ts';
import { colourOn, paint, say, table } from '../output.ts';

function seconds(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '?';
  return value < 90 ? `${Math.round(value)}s` : `${Math.round(value / 60)}m`;
}

/** The counts in the words of the summary table: succeeded, failed, rejected, unknown. */
function countsLine(p: BatchProgress): string {
  const c = p.counts;
  return `succeeded ${c.succeeded}, failed ${c.failed}, rejected ${c.rejected}, unknown ${c.unknown}`;
}

/** The pace in force and the throttles met, when there are any: what a gateway that says "slow down" did to the batch. */
function pacing(p: BatchProgress): string {
  const parts = [...(p.pace == null ? [] : [`pace ${p.pace.toFixed(0)} requests/s`]), ...(p.throttled > 0 ? [`throttled ${p.throttled}`] : [])];
  return parts.length > 0 ? `, ${parts.join(', ')}` : '';
}

function progressLine(p: BatchProgress): string {
  return `progress: ${p.done}${p.total ? `/${p.total}` : ''} orders (${countsLine(p)}), ${p.ratePerSecond.toFixed(0)}/s, ETA ${seconds(p.etaSeconds)}${pacing(p)}`;
}

/** The default time between two progress lines off a terminal. */
export const PROGRESS_LINE_EVERY_MS = 2000;

/**
 * Progress on a terminal: a live bar; elsewhere (a log, a pipe): a line at the first update, then the latest state
 * every `everyMs` while the batch runs (so a log shows it moving, or waiting), and the last state when it ends.
 */
export function progressReporterFor(io: CliIo, everyMs = PROGRESS_LINE_EVERY_MS): { update(p: BatchProgress): void; stop(): void } {
  if (colourOn(io)) return progressBar(io);
  let latest: BatchProgress | null = null;
  let printed: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  const print = (always: boolean): void => {
    if (!latest) return;
    const line = progressLine(latest);
    if (always || line !== printed) say(io, line);
    printed = line;
  };
  return {
    update(p) {
      latest = p;
      if (timer) return;
      print(true);
      timer = setInterval(() => print(true), everyMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      print(false);
    },
  };
}

/** Progress as a live bar. Stopped, it leaves its last state on its line and takes no more updates. */
function progressBar(io: CliIo): { update(p: BatchProgress): void; stop(): void } {
  const bar = new SingleBar({
    format: ' {bar} {value}/{total} orders | {counts} | {rate}/s | ETA {eta_text}{pacing}',
    barsize: 20,
    hideCursor: true,
    stream: io.stdout as NodeJS.WriteStream,
    clearOnComplete: false,
  });
  let started = false;
  let stopped = false;
  return {
    update(p) {
      if (stopped) return;
      const payload = { rate: p.ratePerSecond.toFixed(0), eta_text: seconds(p.etaSeconds), counts: countsLine(p), pacing: pacing(p).replace(/^, /, ' | ') };
      if (!started) {
        bar.start(p.total ?? p.done, p.done, payload);
        started = true;
      }
      if (p.total === null) bar.setTotal(Math.max(p.done, 1));
      bar.update(p.done, payload);
    },
    stop: () => {
      if (started && !stopped) bar.stop();
      stopped = true;
    },
  };
}

/** The summary table of a finished batch. */
export function summaryTable(io: CliIo, result: BatchResult): string {
  const c = result.counts;
  return table(
    io,
    ['outcome', 'orders'],
    [
      [paint(io, 'green', 'succeeded'), c.succeeded],
      [paint(io, 'red', 'failed'), c.failed],
      [paint(io, 'yellow', 'rejected'), c.rejected],
      [paint(io, 'magenta', 'unknown'), c.unknown],
      ['total', result.total],
      ...(result.throttled > 0 ? [['requests throttled, sent again', result.throttled]] : []),
    ],
  );
}
