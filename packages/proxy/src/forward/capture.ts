/** The first `limit` bytes of a stream's chunks, kept by reference (no copy); `whole` false once more came. */
export class Capture {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #size = 0;
  #over = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Keeps a chunk while the total stays within the limit. */
  add(chunk: Buffer): void {
    if (this.#over) return;
    this.#size += chunk.length;
    if (this.#size > this.#limit) {
      this.#over = true;
      this.#chunks.length = 0;
    } else this.#chunks.push(chunk);
  }

  /** The whole body, or null when it was larger than the limit. */
  body(): Buffer | null {
    if (this.#over) return null;
    return this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#size);
  }
}
