import { createHmacSha256Signer } from '@gw/signer-interface';
import { describe, expect, it } from 'vitest';
import { createMemoryDedupeStore, createNotificationReceiver, type DedupeStore } from '../src/index.ts';
import { signedNotification } from '../src/testing.ts';
import { cardEvent, SECRET } from './helpers.ts';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store answering later, as a SQL or Redis one does, logging each step when it completes. */
function slowStore(log: string[]): DedupeStore {
  const memory = createMemoryDedupeStore();
  return {
    claim: async (id, leaseMs) => {
      await tick(20);
      const result = memory.claim(id, leaseMs) as string;
      log.push(`claim ${result}`);
      return result as 'claimed' | 'done' | 'busy';
    },
    commit: async (id) => {
      await tick(20);
      memory.commit(id);
      log.push('commit');
    },
    release: async (id) => {
      await tick(20);
      memory.release(id);
      log.push('release');
    },
  };
}

describe('a receiver with a store and a handler that answer later', () => {
  it('answers only after the claim, the handler and the commit have all finished, in that order', async () => {
    const log: string[] = [];
    const receiver = createNotificationReceiver({
      verifiers: [createHmacSha256Signer({ secret: SECRET })],
      store: slowStore(log),
      onEvent: async () => {
        await tick(20);
        log.push('handler');
      },
    });
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const answer = await receiver.handle({ body: n.bytes, headers: n.headers }, undefined);
    log.push(`answered ${answer.status}`);
    expect(log).toEqual(['claim claimed', 'handler', 'commit', 'answered 200']);
    expect((await receiver.handle({ body: n.bytes, headers: n.headers }, undefined)).outcome).toBe('duplicate');
  });

  it('releases (awaited) when the handler rejects, so the retry runs it', async () => {
    const log: string[] = [];
    let calls = 0;
    const receiver = createNotificationReceiver({
      verifiers: [createHmacSha256Signer({ secret: SECRET })],
      store: slowStore(log),
      onEvent: async () => {
        calls += 1;
        await tick(5);
        if (calls === 1) throw new Error('database down');
      },
    });
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    const first = await receiver.handle({ body: n.bytes, headers: n.headers }, undefined);
    log.push(`answered ${first.status}`);
    expect(log).toEqual(['claim claimed', 'release', 'answered 500']);
    expect((await receiver.handle({ body: n.bytes, headers: n.headers }, undefined)).outcome).toBe('processed');
    expect(calls).toBe(2);
  });

  it('with the memory store and a synchronous handler, a throw is a 500 and the same event runs again on the retry', async () => {
    let calls = 0;
    const receiver = createNotificationReceiver({
      verifiers: [createHmacSha256Signer({ secret: SECRET })],
      onEvent: () => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
      },
    });
    const n = await signedNotification({ event: cardEvent(), secret: SECRET });
    expect((await receiver.handle({ body: n.bytes, headers: n.headers }, undefined)).status).toBe(500);
    expect((await receiver.handle({ body: n.bytes, headers: n.headers }, undefined)).outcome).toBe('processed');
    expect((await receiver.handle({ body: n.bytes, headers: n.headers }, undefined)).outcome).toBe('duplicate');
    expect(calls).toBe(2);
  });
});
