import { createHash, hash } from 'node:crypto';

const BLOCK = 64;
const DIGEST = 32;

/** A keyed HMAC-SHA256: lowercase hex over UTF-8 text, given whole or as path=value pairs written one after the other. */
export interface HmacSha256 {
  (text: string): string;
  /**
   * The same as over the text `path=escape(value)` for each leaf in `order`, joined by `&`, without making that whole
   * text: short pairs are joined and written together, a long value straight into the hash input on its own (every
   * boundary is next to an ASCII `=` or `&`, so no surrogate pair is split).
   */
  pairs(paths: readonly string[], values: readonly string[], order: readonly number[], escape: (value: string) => string): string;
}

const MAX_VIEWS = 256;
/** Longest value joined with its neighbours before writing; a longer one (a notification's body) is written alone. */
const LONG_VALUE = 256;
/** Largest scratch buffer grown to the 3-bytes-per-unit bound without counting bytes (1 MiB). */
const MAX_BOUND = 1 << 20;

/** Most leaves of a message whose pieces are written one by one; more are joined first (see `pairs`). */
const FEW_LEAVES = 8;
/** Longest text copied character by character (see writeText). */
const SHORT_TEXT = 32;

// Writes `text` as UTF-8 at `at` and returns where it ends. A short ASCII text (a path, a short value) is copied by
// character: its UTF-8 bytes are its character codes, and a call into Buffer#write costs more than the copy.
function writeText(target: Buffer, text: string, at: number): number {
  if (text.length <= SHORT_TEXT) {
    let i = 0;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) break;
      target[at + i] = code;
    }
    if (i === text.length) return at + i;
  }
  return at + target.write(text, at, 'utf8');
}

/**
 * HMAC-SHA256 (RFC 2104) over UTF-8 text as two one-shot `crypto.hash` calls on pre-padded keys. Same result as
 * `createHmac('sha256', key)`, at a fraction of its cost per call: a Hmac object fetches and sets up an OpenSSL MAC
 * context each time, which a server signing every answer and verifying every request pays twice per request.
 * The inner digest comes back as a 32-character latin1 string written straight into the outer block: asking
 * `crypto.hash` for a Buffer costs about as much again as hashing a short text (a fresh backing store per call).
 * The padded keys live only in this closure; the caller's secret bytes are not kept.
 */
export function createHmacSha256(secret: Uint8Array): HmacSha256 {
  const key = Buffer.alloc(BLOCK);
  if (secret.byteLength > BLOCK) key.set(createHash('sha256').update(secret).digest());
  else key.set(secret);
  const outer = Buffer.alloc(BLOCK + DIGEST);
  let inner = Buffer.alloc(4096);
  for (let i = 0; i < BLOCK; i++) {
    inner[i] = key[i]! ^ 0x36;
    outer[i] = key[i]! ^ 0x5c;
  }
  key.fill(0);
  // One scratch buffer, grown when the input may need more (UTF-8 takes at most 3 bytes per UTF-16 unit, so the
  // length bound needs no byte count); the text is written after the inner key block.
  // Views of the first n bytes of the scratch buffer, kept per length (messages of one format mostly repeat a few
  // lengths): hashing a view made afresh per call costs an object as large as a short message.
  let views = new Map<number, Buffer>();
  const reserve = (units: number, bytes: () => number): void => {
    const bound = BLOCK + units * 3;
    if (bound <= inner.length) return;
    // Up to MAX_BOUND the buffer grows to the bound itself: counting the exact bytes walks every value (escaped)
    // again, on every call of a size the buffer does not yet hold at 3 bytes per unit (a batch answer of 50 orders).
    const needed = bound <= MAX_BOUND ? bound : BLOCK + bytes();
    if (needed <= inner.length) return;
    const grown = Buffer.alloc(Math.max(needed, inner.length * 2));
    inner.copy(grown, 0, 0, BLOCK);
    inner.fill(0);
    inner = grown;
    views = new Map();
  };
  const viewOf = (end: number): Buffer => {
    let view = views.get(end);
    if (view === undefined) {
      if (views.size >= MAX_VIEWS) views.clear();
      view = inner.subarray(0, end);
      views.set(end, view);
    }
    return view;
  };
  const finish = (end: number): string => {
    // The inner digest as 32 latin1 characters, one per byte: copied by character after the outer key block.
    const digest = hash('sha256', viewOf(end), 'binary') as string;
    for (let i = 0; i < DIGEST; i++) outer[BLOCK + i] = digest.charCodeAt(i);
    return hash('sha256', outer, 'hex') as string;
  };
  const hmac = (text: string): string => {
    reserve(text.length, () => Buffer.byteLength(text, 'utf8'));
    return finish(BLOCK + inner.write(text, BLOCK, 'utf8'));
  };
  hmac.pairs = (paths: readonly string[], values: readonly string[], order: readonly number[], escape: (value: string) => string): string => {
    // Escaping turns one ASCII character into three: 3 bytes per unit of the unescaped value still bounds its UTF-8.
    let units = 0;
    for (let i = 0; i < order.length; i++) units += paths[order[i]!]!.length + values[order[i]!]!.length + 2;
    reserve(units, () => {
      let bytes = 0;
      for (let i = 0; i < order.length; i++) bytes += Buffer.byteLength(paths[order[i]!]!, 'utf8') + Buffer.byteLength(escape(values[order[i]!]!), 'utf8') + 2;
      return bytes;
    });
    let end = BLOCK;
    if (order.length <= FEW_LEAVES) {
      // A message of a few leaves (a notification's `t` and body): each piece written where it goes, nothing joined.
      for (let i = 0; i < order.length; i++) {
        const leaf = order[i]!;
        if (i > 0) inner[end++] = 0x26; // &
        end = writeText(inner, paths[leaf]!, end);
        inner[end++] = 0x3d; // =
        end = writeText(inner, escape(values[leaf]!), end);
      }
      return finish(end);
    }
    // Many short pairs (a batch of orders) are joined into one text written in one call: the engine copies many short
    // pieces faster that way than a loop over their characters; a long value is still written on its own.
    let text = '';
    for (let i = 0; i < order.length; i++) {
      const leaf = order[i]!;
      const value = escape(values[leaf]!);
      text += i === 0 ? `${paths[leaf]!}=` : `&${paths[leaf]!}=`;
      if (value.length <= LONG_VALUE) {
        text += value;
        continue;
      }
      end = writeText(inner, text, end);
      end = writeText(inner, value, end);
      text = '';
    }
    if (text !== '') end = writeText(inner, text, end);
    return finish(end);
  };
  return hmac;
}
