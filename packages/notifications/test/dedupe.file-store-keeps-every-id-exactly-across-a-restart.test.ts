// `gw listen --seen-file` and createFileDedupeStore keep any event id the envelope accepts exactly across a restart:
// ids with spaces at their ends, line breaks, quotes or backslashes are handled once, and an id that differs from one
// of them only by those characters is another event, run once too.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileDedupeStore } from '../src/index.ts';

const handled = ['evt_ws ', ' evt_lead', 'evt_nl\nx', 'evt_cr\r', '"evt_quoted"', 'evt_back\\slash', 'evt tab\t', '\u2028evt_ls', 'évt_ünïcode', 'evt_plain'];
// Each a different event from one above, which a store that trimmed or dropped characters would take for it.
const others = ['evt_ws', 'evt_lead', 'evt_nlx', 'evt_cr', 'evt_quoted', 'evt tab'];

describe('the file store after a restart', () => {
  it('knows every handled id exactly, and no other', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gw-notify-ids-')), 'seen.log');
    const first = createFileDedupeStore(path);
    for (const id of handled) {
      expect(first.claim(id, 1000)).toBe('claimed');
      first.commit(id);
    }
    const restarted = createFileDedupeStore(path);
    for (const id of handled) expect(restarted.claim(id, 1000), JSON.stringify(id)).toBe('done');
    for (const id of others) expect(restarted.claim(id, 1000), JSON.stringify(id)).toBe('claimed');
    // One id a line; a plain id is written as it is.
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines).toHaveLength(handled.length + 1);
    expect(lines).toContain('evt_plain');
  });

  it('reads a file written before ids were quoted: one id a line, as it is', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gw-notify-ids-old-')), 'seen.log');
    writeFileSync(path, 'evt_a\nevt_b\\c\n"not json\n');
    const store = createFileDedupeStore(path);
    expect([store.claim('evt_a', 1000), store.claim('evt_b\\c', 1000), store.claim('"not json', 1000)]).toEqual(['done', 'done', 'done']);
  });
});
