import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createHmacSha256Signer, createSignableMessage, hmacSha256SigningText } from '../src/index.ts';

// Why nothing can hold the text: the reference HMAC signer makes the signing text as a local string, hands it to a
// node:crypto Hmac made for that call, and returns the digest; signaturesMatch encodes both signatures into fresh
// arrays. No module keeps a buffer, a cache or any other mutable state, so once a call returns, the text is reachable
// from nowhere in the package (the caller's own record and message aside). These tests check what can be checked from
// JavaScript: golden signatures, every object reachable from every module's exports, the legacy RegExp statics, and
// the module sources themselves (no module-level buffer or mutable state to hold anything).

const srcDir = join(import.meta.dirname, '../src');
const moduleFiles = readdirSync(srcDir).filter((file) => file.endsWith('.ts'));

const CARDS = ['4111111111111111', '5555555555554444'] as const;
// Recorded from the previous implementation (hand-made HMAC over pre-padded keys): the bytes must not change.
const GOLDEN: Record<(typeof CARDS)[number], string> = {
  '4111111111111111': 'b327486dc385d2d4a6587bbffff35ab84e57348014bd8eb8604c4c46b1f83659',
  '5555555555554444': 'ceb85efff4ba72a85662d72c8476251e76065dbaad22be2481b448468371e93b',
};

function cardMessage(card: string) {
  const record = { merchant_id: 'M100200', account_id: 'A300400', order_no: 'ORD-1', currency: 'USD', amount: '129.90', card: { card_number: card, expiry: '12/30', cvv: '123' }, card_raw: card };
  return createSignableMessage({ operation: 'authoriseCard', record, body: () => JSON.stringify(record) });
}

/** True if `digits` appears as text or as ASCII bytes anywhere reachable from `root` (own properties, no getters run). */
function holds(root: unknown, digits: string): boolean {
  const bytes = Buffer.from(digits, 'latin1');
  const seen = new Set<unknown>();
  const todo: unknown[] = [root];
  while (todo.length > 0) {
    const value = todo.pop();
    if (typeof value === 'string') {
      if (value.includes(digits)) return true;
      continue;
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
    seen.add(value);
    if (ArrayBuffer.isView(value)) {
      if (Buffer.from(value.buffer, value.byteOffset, value.byteLength).includes(bytes)) return true;
      continue;
    }
    if (value instanceof ArrayBuffer && Buffer.from(value).includes(bytes)) return true;
    if (value instanceof Map) for (const [k, v] of value) todo.push(k, v);
    if (value instanceof Set) for (const v of value) todo.push(v);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor && 'value' in descriptor) todo.push(descriptor.value);
    }
    todo.push(Object.getPrototypeOf(value));
  }
  return false;
}

describe('signing with the reference HMAC signer', () => {
  it('gives the golden, different signatures for two card numbers, each HMAC-SHA256 of its own signing text', () => {
    const signer = createHmacSha256Signer({ secret: 'sandbox-secret' });
    for (const card of CARDS) {
      const message = cardMessage(card);
      const signature = signer.sign(message);
      expect(signature).toBe(GOLDEN[card]);
      expect(signature).toBe(createHmac('sha256', 'sandbox-secret').update(hmacSha256SigningText(message), 'utf8').digest('hex'));
      expect(signer.verify(message, signature)).toBe(true);
    }
    expect(GOLDEN[CARDS[0]]).not.toBe(GOLDEN[CARDS[1]]);
  });

  it('leaves the card number in nothing reachable from any module of the package, nor in the signer or RegExp statics', async () => {
    const modules = await Promise.all(moduleFiles.map((file) => import(join(srcDir, file)) as Promise<Record<string, unknown>>));
    const signer = createHmacSha256Signer({ secret: 'sandbox-secret' });
    for (const card of CARDS) {
      /sentinel/.exec('sentinel'); // the legacy statics now hold "sentinel": a regex matched on signed text would replace it
      let message: ReturnType<typeof cardMessage> | undefined = cardMessage(card);
      const signature = signer.sign(message);
      expect(signer.verify(message, signature)).toBe(true);
      const statics = [RegExp.input, RegExp.lastMatch, RegExp.leftContext, RegExp.rightContext].join('|');
      message = undefined; // the caller's own message is the only holder, and it lets go here
      expect(statics).not.toContain(card);
      expect(holds(modules, card)).toBe(false);
      expect(holds(signer, card)).toBe(false);
      expect([String(signer), JSON.stringify(signer), inspect(signer, { showHidden: true, depth: 10 })].join('|')).not.toContain(card);
      expect(message).toBeUndefined();
    }
  });

  it('runs on modules that keep no buffer and no mutable state at module level', () => {
    // Module-level constants that hold static tables only (names from @gw/types), never a signed value.
    const staticTables = new Set(['SECRET_KEYS', 'OPERATIONS']);
    const found: string[] = [];
    for (const file of moduleFiles) {
      for (const line of readFileSync(join(srcDir, file), 'utf8').split('\n')) {
        if (/^(let|var) /.test(line)) found.push(`${file}: ${line}`);
        const constant = /^(?:export )?const (\w+)[^=]*= (.*)$/.exec(line);
        if (!constant) continue;
        const [, name, init] = constant;
        if (/Buffer\.|Uint8Array|ArrayBuffer|\bnew \w|^\[/.test(init!) && !staticTables.has(name!)) found.push(`${file}: ${line}`);
      }
    }
    expect(found).toEqual([]);
  });
});
