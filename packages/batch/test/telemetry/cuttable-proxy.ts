// A TCP proxy on 127.0.0.1 in front of PostgreSQL that a test can cut (every connection reset, new ones refused) and
// open again: a ledger out of reach for a while, in-process, with the real database behind it.
import { createServer, connect, type Server, type Socket } from 'node:net';

/** The proxy: the URL to use instead of `url`, cut and open it, close it. */
export interface CuttableProxy {
  readonly url: string;
  /** Resets every connection and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  open(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy to the PostgreSQL server of `url` (a `postgres://` URL). */
export async function cuttableProxy(url: string): Promise<CuttableProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let server: Server = listening();
  const port = await listen(server, 0);
  function listening(): Server {
    return createServer((client) => {
      const upstream = connect(Number(target.port), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
  }
  const proxied = new URL(url);
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    async cut() {
      // close() stops accepting at once and calls back once every connection is gone: reset them meanwhile.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.resetAndDestroy();
      await closed;
    },
    async open() {
      server = listening();
      await listen(server, port);
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}
