// A TCP proxy on 127.0.0.1 in front of PostgreSQL that lets a statement through and cuts its connection once the server
// has answered it whole (ReadyForQuery: committed), the answer never reaching the client: a connection reset while a
// statement was in flight, after the statement took effect. Only statements whose text holds `marker`, `cuts` times,
// every `every`th one.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface AnswerCuttingProxy {
  readonly url: string;
  /** Answers cut so far. */
  readonly cut: number;
  close(): Promise<void>;
}

/** ReadyForQuery ('Z', length 5, a status byte): the last message of the server's answer to a statement. */
function endsWithReadyForQuery(data: Buffer): boolean {
  const at = data.length - 6;
  return at >= 0 && data[at] === 0x5a && data.readUInt32BE(at + 1) === 5;
}

export async function answerCuttingProxy(url: string, options: { marker: string; cuts: number; every: number }): Promise<AnswerCuttingProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let seen = 0;
  let cut = 0;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    let armed = false;
    client.on('data', (data: Buffer) => {
      if (data.includes(options.marker) && cut < options.cuts && ++seen % options.every === 0) armed = true;
      upstream.write(data);
    });
    upstream.on('data', (data: Buffer) => {
      if (!armed) return void client.write(data);
      // The answer is held back; once it is whole the statement has committed: reset the client, drop the answer.
      if (!endsWithReadyForQuery(data)) return;
      cut += 1;
      client.resetAndDestroy();
      upstream.destroy();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const proxied = new URL(url);
  proxied.port = String((server.address() as { port: number }).port);
  return {
    url: proxied.toString(),
    get cut() {
      return cut;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
