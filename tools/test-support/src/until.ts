import { setTimeout as sleep } from 'node:timers/promises';

/** Waits until `check` holds (it may ask a server: a promise is awaited), asking every 10 ms, or fails after `ms` saying `what` did not happen in time. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not met in ${ms} ms`);
    await sleep(10);
  }
}
