/** Reads at most `limit` bytes of an answer body, then cancels it: a huge answer costs no memory. */
export async function readAtMost(body: ReadableStream<Uint8Array> | null, limit: number): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  let read = 0;
  try {
    while (read <= limit) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } finally {
    reader.releaseLock();
  }
}
