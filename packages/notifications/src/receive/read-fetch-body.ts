import { NotificationRefusedError } from '../errors.ts';

function tooLarge(bytes: number, limit: number): NotificationRefusedError {
  return new NotificationRefusedError(`The body has ${bytes} bytes or more, more than maxBodyBytes (${limit}).`, { reason: 'too-large', bytes });
}

/** A WHATWG request's raw body, refused (`too-large`) past `limit` without reading the rest into memory. */
export async function readFetchBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) throw tooLarge(declared, limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel();
      throw tooLarge(bytes, limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, bytes);
}
