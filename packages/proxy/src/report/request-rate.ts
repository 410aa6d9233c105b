import type { RequestPace } from '../check/exchange.ts';
import { operationsByPath } from '@gw/types';

const WINDOW_MS = 1000;

/** The start times of the last second's requests at one place, oldest first. */
class Window {
  #times: number[] = [];
  #head = 0;

  /** Adds a start and returns how many started in the second up to it, it included. */
  add(at: number): number {
    this.#times.push(at);
    while (this.#times[this.#head]! <= at - WINDOW_MS) this.#head += 1;
    // Drop what fell out once it is most of the array, so memory stays about one second's requests.
    if (this.#head > 1024 && this.#head * 2 > this.#times.length) {
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
    return this.#times.length - this.#head;
  }
}

/**
 * Counts requests as they start, per `/v1` path of the spec and over all of them, in a sliding second: the pace a
 * throttle is reported with (UNKNOWNS U50). Starts must come in time order (a monotonic clock, or a sorted recording).
 */
export class RequestRate {
  readonly #all = new Window();
  readonly #byPath = new Map<string, Window>();

  /** Counts a request to `path` starting at `at` (ms) and returns the pace it started at. */
  arrived(path: string, at: number): RequestPace {
    const all = this.#all.add(at);
    // Only the spec's paths get a window of their own, so a caller sending to any path cannot grow the map.
    if (!operationsByPath.has(path)) return { operation: 1, all };
    let window = this.#byPath.get(path);
    if (!window) this.#byPath.set(path, (window = new Window()));
    return { operation: window.add(at), all };
  }
}
