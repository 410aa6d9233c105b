import { rename, writeFile } from 'node:fs/promises';
import type { DriftReport } from './report-types.ts';

/** How long a change waits before the report file is rewritten (changes in between are written together). */
const WRITE_DELAY_MS = 100;

/**
 * Keeps a report file up to date as traffic goes: at most one write in flight, each a whole file written beside the
 * target and renamed over it, so a reader never sees half a report.
 */
export class ReportFile {
  readonly #path: string;
  readonly #report: DriftReport;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;

  constructor(path: string, report: DriftReport) {
    this.#path = path;
    this.#report = report;
  }

  /** Marks the report changed; it is written within WRITE_DELAY_MS. */
  changed(): void {
    this.#dirty = true;
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, WRITE_DELAY_MS);
    this.#timer.unref();
  }

  /** Writes the report now if it changed, after any write in flight. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#writing = this.#writing.then(async () => {
      if (!this.#dirty) return;
      this.#dirty = false;
      const temporary = `${this.#path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(this.#report, null, 2)}\n`);
      await rename(temporary, this.#path);
    });
    return this.#writing;
  }
}
