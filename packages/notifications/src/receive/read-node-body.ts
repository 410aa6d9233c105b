import type { IncomingMessage } from 'node:http';
import { NotificationRefusedError } from '../errors.ts';

/**
 * The raw request body as bytes, refused (`too-large`) past `limit`. When a framework already read it as raw bytes
 * (express `express.raw()` sets `req.body` to a Buffer) those are used; a body a JSON parser already turned into an
 * object is refused: its re-serialisation is not the signed bytes.
 */
export async function readNodeBody(req: IncomingMessage & { body?: unknown }, limit: number): Promise<Uint8Array> {
  if (req.body instanceof Uint8Array) return req.body;
  if (req.body !== undefined && req.body !== null && typeof req.body === 'object' && req.readableEnded) {
    throw new NotificationRefusedError(
      'A body parser already turned the body into an object: mount the receiver before it, or use express.raw({ type: "*/*" }) on this route.',
      { reason: 'malformed', problems: ['the raw body bytes are gone (a JSON body parser ran first)'] },
    );
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  // Read to the end (so the answer can still be written), keeping nothing past the limit.
  await new Promise<void>((resolve, reject) => {
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.byteLength;
      if (bytes <= limit) chunks.push(chunk);
    });
    req.once('end', resolve);
    req.once('error', reject);
  });
  if (bytes > limit) throw new NotificationRefusedError(`The body has ${bytes} bytes, more than maxBodyBytes (${limit}).`, { reason: 'too-large', bytes });
  // One chunk (a small body) is the body as it is: copying it into a new buffer would change nothing.
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
}
