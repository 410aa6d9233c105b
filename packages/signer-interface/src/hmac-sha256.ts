import { createHash, hash } from 'node:crypto';

const BLOCK = 64;
const DIGEST = 32;

/** A keyed HMAC-SHA256: lowercase hex over UTF-8 text, given whole or as pieces written one after the other. */
export interface HmacSha256 {
  (text: string): string;
  /**
   * The same as over `pieces.join('')`, without joining them: each piece is written straight into the hash input. No
   * piece may end inside a surrogate pair that the next completes (each is encoded on its own).
   */
  pieces(pieces: readonly string[]): string;
}

const MAX_VIEWS = 256;
const SHORT_PIECE = 32;

// Writes `piece` as UTF-8 at `at` and returns where it ends. A short ASCII piece (`&t=`, `payload=`) is copied by
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
    if (BLOCK + units * 3 <= inner.length) return;
    const needed = BLOCK + bytes();
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
    outer.write(hash('sha256', viewOf(end), 'binary') as string, BLOCK, 'latin1');
    return hash('sha256', outer, 'hex') as string;
  };
  const hmac = (text: string): string => {
    reserve(text.length, () => Buffer.byteLength(text, 'utf8'));
    return finish(BLOCK + inner.write(text, BLOCK, 'utf8'));
  };
  hmac.pieces = (pieces: readonly string[]): string => {
    let units = 0;
    for (let i = 0; i < pieces.length; i++) units += pieces[i]!.length;
    reserve(units, () => pieces.reduce((sum, piece) => sum + Buffer.byteLength(piece, 'utf8'), 0));
    let end = BLOCK;
    for (let i = 0; i < pieces.length; i++) end = writePiece(inner, pieces[i]!, end);
    return finish(end);
  };
  return hmac;
}
