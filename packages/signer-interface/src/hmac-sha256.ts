import { createHash, hash } from 'node:crypto';

const BLOCK = 64;
const DIGEST = 32;

/** A keyed HMAC-SHA256: lowercase hex over UTF-8 text, given whole or as path=value pairs written one after the other. */
export interface HmacSha256 {
  (text: string): string;
  /**
   * The same as over the text `path=escape(value)` for each leaf in `order`, joined by `&`, without making that text:
   * each path and value is written straight into the hash input (every boundary is next to an ASCII `=` or `&`, so no
   * surrogate pair is split).
   */
  pairs(paths: readonly string[], values: readonly string[], order: readonly number[], escape: (value: string) => string): string;
}

const MAX_VIEWS = 256;
const SHORT_PIECE = 32;
/** Largest scratch buffer grown to the 3-bytes-per-unit bound without counting bytes (1 MiB). */
const MAX_BOUND = 1 << 20;

// Writes `piece` as UTF-8 at `at` and returns where it ends. A short ASCII piece (a path, a short value) is copied by
// character: its UTF-8 bytes are its character codes, and a call into Buffer#write costs more than the copy.
function writePiece(target: Buffer, piece: string, at: number): number {
  if (piece.length <= SHORT_PIECE) {
    let i = 0;
    for (; i < piece.length; i++) {
      const code = piece.charCodeAt(i);
      if (code >= 0x80) break;
      target[at + i] = code;
    }
    if (i === piece.length) return at + i;
  }
  return at + target.write(piece, at, 'utf8');
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
    for (let i = 0; i < order.length; i++) {
      const leaf = order[i]!;
      if (i > 0) inner[end++] = 0x26; // &
      end = writePiece(inner, paths[leaf]!, end);
      inner[end++] = 0x3d; // =
      end = writePiece(inner, escape(values[leaf]!), end);
    }
    return finish(end);
  };
  return hmac;
}
