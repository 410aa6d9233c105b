// The measured calls the notification benches share: the gw path (verify + parse + de-duplicate, awaited and through
// the synchronous API) and the hand-written receiver, each running through the notifications in turn; and the CPU
// time per call of several of them, measured in alternating batches.
import { createMemoryDedupeStore, verifyNotification, verifyNotificationSync, type DedupeStore, type VerifySettings } from '@gw/notifications';
import type { SignedNotification } from '@gw/notifications/testing';
import { handWrittenVerify } from './fixtures.ts';

/**
 * gw verify + parse + de-duplicate of the next notification, awaited as the receiver does (the store's answer only when
 * it is a promise; the memory store answers at once). A fresh store each pass through the notifications, so every call
 * claims and commits a new event.
 */
export function gwVerifyParseDedupe(notifications: readonly SignedNotification[], settings: VerifySettings): () => Promise<void> {
  let store: DedupeStore = createMemoryDedupeStore();
  let index = 0;
  return async () => {
    const n = notifications[index]!;
    const event = await verifyNotification({ body: n.bytes, headers: n.headers }, settings);
    const claimed = store.claim(event.id, 60_000);
    if ((typeof claimed === 'string' ? claimed : await claimed) !== 'claimed') throw new Error('bench: expected a new event');
    const committed = store.commit(event.id);
    if (committed) await committed;
    if (++index === notifications.length) {
      index = 0;
      store = createMemoryDedupeStore();
    }
  };
}

/** The same through `verifyNotificationSync`, called as the hand-written check is: no promise anywhere. */
export function gwSyncVerifyParseDedupe(notifications: readonly SignedNotification[], settings: VerifySettings): () => void {
  let store: DedupeStore = createMemoryDedupeStore();
  let index = 0;
  return () => {
    const n = notifications[index]!;
    const event = verifyNotificationSync({ body: n.bytes, headers: n.headers }, settings);
    if (store.claim(event.id, 60_000) !== 'claimed') throw new Error('bench: expected a new event');
    store.commit(event.id);
    if (++index === notifications.length) {
      index = 0;
      store = createMemoryDedupeStore();
    }
  };
}

/** The hand-written receiver's check of the next notification (`headers` from handWrittenHeaders). */
export function handWrittenCheck(notifications: readonly SignedNotification[], headers: readonly string[]): () => void {
  let index = 0;
  return () => {
    if (!handWrittenVerify(headers[index]!, notifications[index]!.bytes)) throw new Error('bench: the hand-written check did not verify');
    index = (index + 1) % notifications.length;
  };
}

/**
 * CPU time (process.cpuUsage, user + system) per call of each task, in µs: the tasks in alternating batches of `batch`
 * calls, `rounds` times, so another process's load slows them alike. A task's promise is awaited.
 */
export async function cpuMicrosPerCall<K extends string>(tasks: Record<K, () => unknown>, rounds: number, batch: number): Promise<Record<K, number>> {
  const names = Object.keys(tasks) as K[];
  const micros = Object.fromEntries(names.map((name) => [name, 0])) as Record<K, number>;
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      const task = tasks[name];
      const start = process.cpuUsage();
      for (let k = 0; k < batch; k++) {
        const done = task();
        if (done instanceof Promise) await done;
      }
      const spent = process.cpuUsage(start);
      micros[name] += spent.user + spent.system;
    }
  }
  for (const name of names) micros[name] /= rounds * batch;
  return micros;
}
