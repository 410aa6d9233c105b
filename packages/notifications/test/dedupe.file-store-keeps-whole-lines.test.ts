// The file store counts whole lines only: a line cut by a crash or a full disk never marks an id handled, and the next
// id is written on a line of its own.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileDedupeStore } from '../src/index.ts';

describe('the file store reads and writes whole lines', () => {
  it('drops a torn last line on start (its id is not handled) and appends the next id on a line of its own', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gw-notify-torn-')), 'events.log');
    writeFileSync(path, 'evt_a\nevt_b\nevt_c_cut_sh');
    const store = createFileDedupeStore(path);
    expect([store.claim('evt_a', 1000), store.claim('evt_b', 1000), store.claim('evt_c_cut_sh', 1000)]).toEqual(['done', 'done', 'claimed']);
    expect(readFileSync(path, 'utf8')).toBe('evt_a\nevt_b\n');
    store.commit('evt_d');
    expect(readFileSync(path, 'utf8')).toBe('evt_a\nevt_b\nevt_d\n');
    expect(createFileDedupeStore(path).claim('evt_d', 1000)).toBe('done');
  });
});
