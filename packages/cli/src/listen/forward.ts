import type { IncomingHttpHeaders } from 'node:http';

/** What the forward target answered, or why it could not be reached. */
export type ForwardResult = { readonly ok: true; readonly status: number; readonly body: string } | { readonly ok: false; readonly error: string };

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect']);

/** Forwards the raw body and the sender's headers (signature included) unchanged to `url`. */
export async function forwardNotification(url: string, body: Uint8Array, headers: IncomingHttpHeaders, timeoutMs: number): Promise<ForwardResult> {
  const outgoing: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    outgoing[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  try {
    const response = await fetch(url, { method: 'POST', headers: outgoing, body, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    return { ok: true, status: response.status, body: text.slice(0, 64 * 1024) };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    return { ok: false, error: cause };
  }
}
