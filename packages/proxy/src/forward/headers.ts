import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection: each side of the proxy has its own.
const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** A request's headers for the upstream: every end-to-end header as it came, `host` naming the upstream. */
export function upstreamHeaders(headers: IncomingHttpHeaders, host: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  out.host = host;
  return out;
}

/** An answer's raw headers (names as sent, order and repeats kept) without the hop-by-hop ones. */
export function answerHeaders(rawHeaders: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (!HOP_BY_HOP.has(rawHeaders[i]!.toLowerCase())) out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  return out;
}
