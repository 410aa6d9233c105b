import type { IncomingMessage } from 'node:http';
import { SandboxHttpError } from '../errors.ts';

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
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => fail(new SandboxHttpError(408, `the request body stopped arriving for ${idleMs} ms`, [{ path: '', message: `no data for ${idleMs} ms` }], true)), idleMs);
      timer.unref();
    };
    arm();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        fail(new SandboxHttpError(400, `the request body is larger than ${limit} bytes`, [{ path: '', message: `larger than ${limit} bytes` }]));
        return;
      }
      chunks.push(chunk);
      arm();
    });
    req.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks, size));
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
