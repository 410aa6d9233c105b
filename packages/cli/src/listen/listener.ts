import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NotificationRefusedError, verifyNotification, type DedupeStore, type NotificationEvent, type VerifySettings } from '@gw/notifications';
import { forwardNotification, type ForwardResult } from './forward.ts';

/** One notification as `gw listen` saw it: verification, then what the forward target did. */
export interface ListenRecord {
  readonly at: Date;
  readonly event: NotificationEvent | null;
  /** `verified`, or the refusal's reason and code. */
  readonly verification: { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly code: string; readonly message: string };
  /** True when the event was already forwarded with a 2xx and `skipDuplicates` kept it from the target. */
  readonly skippedDuplicate: boolean;
  readonly forward: ForwardResult | null;
  /** What the sender was answered. */
  readonly answered: number;
}

/** How `gw listen` runs. */
export interface ListenOptions {
  readonly forwardTo: string;
  readonly port: number;
  readonly host: string;
  readonly settings: VerifySettings;
  readonly store: DedupeStore;
  /** Do not forward an event already forwarded and acknowledged by the target. */
  readonly skipDuplicates: boolean;
  readonly forwardTimeoutMs: number;
  readonly onRecord: (record: ListenRecord) => void;
}

async function readAll(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.byteLength;
    if (bytes <= limit) chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function verify(body: Buffer, req: IncomingMessage, settings: VerifySettings): Promise<Pick<ListenRecord, 'event' | 'verification'>> {
  try {
    return { event: await verifyNotification({ body, headers: req.headers }, settings), verification: { ok: true } };
  } catch (error) {
    if (!(error instanceof NotificationRefusedError)) throw error;
    return { event: null, verification: { ok: false, reason: error.reason, code: error.code, message: error.message } };
  }
}

/** Verifies each notification, forwards it (verified or not: the application must refuse what is refused) and answers the sender with the target's status (502 when unreachable). */
async function handle(req: IncomingMessage, options: ListenOptions): Promise<ListenRecord & { readonly reply: string }> {
  const at = new Date();
  const body = await readAll(req, options.settings.maxBodyBytes);
  const checked = await verify(body, req, options.settings);
  const id = checked.event?.id;
  if (id && options.skipDuplicates && (await options.store.claim(id, 60_000)) === 'done') {
    return { at, ...checked, skippedDuplicate: true, forward: null, answered: 200, reply: JSON.stringify({ outcome: 'duplicate', id }) };
  }
  const forward = await forwardNotification(options.forwardTo, body, req.headers, options.forwardTimeoutMs);
  if (id && options.skipDuplicates) await (forward.ok && forward.status < 300 ? options.store.commit(id) : options.store.release(id));
  const answered = forward.ok ? forward.status : 502;
  const reply = forward.ok ? forward.body : JSON.stringify({ outcome: 'forward-failed', message: `gw listen could not reach ${options.forwardTo}: ${forward.error}` });
  return { at, ...checked, skippedDuplicate: false, forward, answered, reply };
}

/** Starts the listener; resolves with its URL and server once listening. */
export async function startListener(options: ListenOptions): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    handle(req, options)
      .then(({ reply, ...record }) => {
        options.onRecord(record);
        res.writeHead(record.answered, { 'content-type': 'application/json' }).end(reply);
      })
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ outcome: 'failed', message: String(error) }));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return { url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`, server };
}
