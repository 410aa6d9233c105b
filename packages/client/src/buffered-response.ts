/**
 * The answer handed back to the generated runtime: a fully read body behind the members of `Response` that the
 * runtime reads (`ok`, `status`, `headers`, `text()`, ...). A WHATWG Response would wrap the bytes already in hand in
 * a stream only to read them back out, which costs more than the rest of the client's work on a call (bench/client).
 */
export class BufferedResponse {
  readonly status: number;
  readonly statusText = '';
  readonly redirected = false;
  readonly type = 'basic';
  readonly url = '';
  readonly #body: Buffer;
  #used = false;

  constructor(status: number, body: Buffer) {
    this.status = status;
    this.#body = body;
  }

  /** No headers: the client decodes by the operation's declared encoding, never by Content-Type (UNKNOWNS U33). */
  get headers(): Headers {
    return new Headers();
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  async text(): Promise<string> {
    this.#used = true;
    return this.#body.toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async bytes(): Promise<Uint8Array> {
    this.#used = true;
    return new Uint8Array(this.#body);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.bytes()).buffer as ArrayBuffer;
  }

  /** As a `Response`, the type the generated runtime's `fetch` returns. */
  asResponse(): Response {
    return this as unknown as Response;
  }
}
