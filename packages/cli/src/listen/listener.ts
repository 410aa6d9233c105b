import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constructEventAsync, NotificationRefusedError, type DedupeStore, type NotificationEvent, type VerifyOptions } from '@gw/notifications';
import { serverLimits, type ServerLimitOptions } from '@gw/types';
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
  /**
   * With `skipDuplicates`: the target took the event (2xx) but the seen-file could not record it (a full disk): it is
   * kept in memory instead, so a retry is still answered as a duplicate while this listener runs.
   */
  readonly notRecorded?: string;
}

/** How `gw listen` runs. */
export interface ListenOptions {
  readonly forwardTo: string;
  readonly port: number;
  readonly host: string;
  readonly verify: VerifyOptions;
  readonly store: DedupeStore;
  /** Do not forward an event already forwarded and acknowledged by the target. */
  readonly skipDuplicates: boolean;
  readonly forwardTimeoutMs: number;
  /** Time and connection limits of the server; those not given are the sandbox's defaults (UNKNOWNS U51). */
  readonly limits?: ListenLimits;
  readonly onRecord: (record: ListenRecord) => void;
}

/** The limits `gw listen` takes, as `startSandbox` names them. */
export type ListenLimits = Pick<ServerLimitOptions, 'headersTimeoutMs' | 'requestTimeoutMs' | 'bodyTimeoutMs' | 'keepAliveTimeoutMs' | 'maxConnections'>;

/**
 * The body (kept up to `limit` bytes, read to its end), or null when it stopped arriving for `idleMs` or the connection
 * went away first (node:http's own request time-out, which bounds a body that trickles, closes it so).
 */
function readBody(req: IncomingMessage, limit: number, idleMs: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const stop = (body: Buffer | null) => {
      clearTimeout(timer);
      req.removeAllListeners('data');
      resolve(body);
    };
    const timer = setTimeout(() => stop(null), idleMs);
    req.on('data', (chunk: Buffer) => {
      timer.refresh();
      bytes += chunk.byteLength;
      if (bytes <= limit) chunks.push(chunk);
    });
    req.once('end', () => stop(Buffer.concat(chunks)));
    req.once('close', () => stop(null));
    req.once('error', () => stop(null));
  });
}

async function verify(body: Buffer, req: IncomingMessage, options: VerifyOptions): Promise<Pick<ListenRecord, 'event' | 'verification'>> {
  try {
    return { event: await constructEventAsync({ body, headers: req.headers }, options), verification: { ok: true } };
  } catch (error) {
    if (!(error instanceof NotificationRefusedError)) throw error;
    return { event: null, verification: { ok: false, reason: error.reason, code: error.code, message: error.message } };
  }
}

/** Verifies each notification, forwards it (verified or not: the application must refuse what is refused) and answers the sender with the target's status (502 when unreachable). */
async function handle(
  req: IncomingMessage,
  body: Buffer,
  at: Date,
  options: ListenOptions,
  handled: Set<string>,
): Promise<ListenRecord & { readonly reply: string }> {
  const checked = await verify(body, req, options.verify);
  const id = checked.event?.id;
  if (id && options.skipDuplicates && (handled.has(id) || (await options.store.claim(id, 60_000)) === 'done')) {
    return { at, ...checked, skippedDuplicate: true, forward: null, answered: 200, reply: JSON.stringify({ outcome: 'duplicate', id }) };
  }
  const forward = await forwardNotification(options.forwardTo, body, req.headers, options.forwardTimeoutMs);
  let notRecorded: string | undefined;
  if (id && options.skipDuplicates) {
    if (forward.ok && forward.status < 300) {
      // The target has the event: it is handled, whatever the seen-file says. Kept in memory when it cannot be recorded.
      try {
        await options.store.commit(id);
      } catch (error) {
        handled.add(id);
        notRecorded = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
      }
    } else await Promise.resolve(options.store.release(id)).catch(() => {});
  }
  const answered = forward.ok ? forward.status : 502;
  const reply = forward.ok
    ? forward.body
    : JSON.stringify({ outcome: 'forward-failed', message: `gw listen could not reach ${options.forwardTo}: ${forward.error}` });
  return { at, ...checked, skippedDuplicate: false, forward, answered, reply, ...(notRecorded ? { notRecorded } : {}) };
}

/** Starts the listener; resolves with its URL and server once listening. */
export async function startListener(options: ListenOptions): Promise<{ url: string; server: Server }> {
  const limits = serverLimits(options.limits ?? {});
  // Events forwarded with a 2xx that the seen-file could not record (a full disk): still duplicates while this runs.
  const handled = new Set<string>();
  const server = createServer(limits.serverOptions, (req, res) => {
    const at = new Date();
    readBody(req, options.verify.maxBodyBytes ?? limits.maxBodyBytes, limits.bodyTimeoutMs)
      .then((body) => {
        if (body === null) {
          // Stalled (or gone): nothing is forwarded; the connection is closed once answered.
          req.resume();
          if (!res.headersSent && !req.socket.destroyed) {
            res
              .writeHead(408, { 'content-type': 'application/json', connection: 'close' })
              .end(JSON.stringify({ outcome: 'timeout', message: `the body stopped arriving for ${limits.bodyTimeoutMs} ms` }));
          }
          return;
        }
        return handle(req, body, at, options, handled).then(({ reply, ...record }) => {
          options.onRecord(record);
          res.writeHead(record.answered, { 'content-type': 'application/json' }).end(reply);
        });
      })
      .catch((error: unknown) => {
        if (!res.headersSent && !req.socket.destroyed)
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ outcome: 'failed', message: String(error) }));
      });
  });
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return { url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`, server };
}
