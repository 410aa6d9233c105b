/** One request and its answer as they passed through the proxy; a body is null when it was larger than the capture limit. */
export interface Exchange {
  readonly path: string;
  readonly method: string;
  readonly requestContentType: string;
  readonly requestBody: Buffer | null;
  readonly status: number;
  readonly responseContentType: string;
  readonly responseBody: Buffer | null;
}
