import type { IncomingMessage } from 'node:http';
import { SandboxHttpError } from '../refusals/errors.ts';

/** How a request body is read: at most `limit` bytes, and no pause between two pieces longer than `idleMs`. */
export interface BodyLimits {
  readonly limit: number;
  readonly idleMs: number;
}

/**
 * Reads a request body within its limits (UNKNOWNS U51). Over the size limit: HTTP 400. A body that stops arriving for
 * `idleMs`: HTTP 408, and the connection is closed once answered (the caller sees `closeAfter`).
 */
export function readBody(req: IncomingMessage, { limit, idleMs }: BodyLimits): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const fail = (error: SandboxHttpError) => {
      clearTimeout(timer);
      req.removeAllListeners('data');
      req.resume();
      reject(error);
    };
    // The idle timer runs only while the body is still arriving: a body the parser has already read whole (req.complete,
    // as it is for almost every request once the read that brought its headers is parsed) waits on no network, so it
    // needs none. Checked once that read is parsed (next tick), then at each piece; one timer, refreshed, never replaced.
    const watch = () => {
      if (req.complete) clearTimeout(timer);
      else if (timer) timer.refresh();
      else {
        timer = setTimeout(
          () =>
            fail(new SandboxHttpError(408, `the request body stopped arriving for ${idleMs} ms`, [{ path: '', message: `no data for ${idleMs} ms` }], true)),
          idleMs,
        );
        timer.unref();
      }
    };
    process.nextTick(watch);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        fail(new SandboxHttpError(400, `the request body is larger than ${limit} bytes`, [{ path: '', message: `larger than ${limit} bytes` }]));
        return;
      }
      chunks.push(chunk);
      watch();
    });
    req.on('end', () => {
      clearTimeout(timer);
      // A body that came in one piece (most do) is that piece, not a copy of it.
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
