import { isUtf8 } from 'node:buffer';
import { OrderSourceError } from './errors.ts';

/** The longest line (and CSV record) an orders file may hold, in bytes: an order is a few hundred. */
export const MAX_ORDER_LINE_BYTES = 65_536;

/** Bytes of an orders file: a path's contents, or any (async) iterable of chunks, e.g. a stream. */
export type OrderBytes = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

/** Text of whole lines, and the number of the first one. */
export interface CheckedText {
  readonly text: string;
  readonly firstLine: number;
}

function checkLines(bytes: Buffer, firstLine: number, name: string): CheckedText {
  let line = firstLine;
  let start = 0;
  const whole = isUtf8(bytes);
  while (start < bytes.length) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline + 1;
    if (end - start > MAX_ORDER_LINE_BYTES + 2)
      throw new OrderSourceError(name, line, `the line is longer than ${MAX_ORDER_LINE_BYTES} bytes; an order fits in far less`);
    // '\n' never occurs inside a UTF-8 sequence, so each line can be checked on its own.
    if (!whole && !isUtf8(bytes.subarray(start, end))) throw new OrderSourceError(name, line, 'the line is not valid UTF-8 text; save the file as UTF-8');
    start = end;
    line += 1;
  }
  return { text: bytes.toString('utf8'), firstLine };
}

/**
 * The text of `source` in runs of whole lines, checked to be UTF-8 with no line over MAX_ORDER_LINE_BYTES; memory
 * stays bounded by the chunk size and the line limit, whatever the input.
 */
export async function* checkedText(source: OrderBytes, name: string): AsyncGenerator<CheckedText> {
  let tail: Buffer = Buffer.alloc(0);
  let line = 1;
  for await (const piece of source) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    const data = tail.length === 0 ? chunk : Buffer.concat([tail, chunk]);
    const cut = data.lastIndexOf(0x0a) + 1;
    tail = Buffer.from(data.subarray(cut));
    if (tail.length > MAX_ORDER_LINE_BYTES + 2) {
      const complete = checkLines(data.subarray(0, cut), line, name);
      throw new OrderSourceError(name, line + countLines(complete.text), `the line is longer than ${MAX_ORDER_LINE_BYTES} bytes; an order fits in far less`);
    }
    if (cut === 0) continue;
    const checked = checkLines(data.subarray(0, cut), line, name);
    line += countLines(checked.text);
    yield checked;
  }
  if (tail.length > 0) yield checkLines(tail, line, name);
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}
