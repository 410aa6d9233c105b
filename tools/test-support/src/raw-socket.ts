// A raw TCP connection to a server on loopback, for what an HTTP client never sends: a header a byte at a time, a body
// that stops.
import { connect, type Socket } from 'node:net';

/** Opens a raw connection to 127.0.0.1:`port` and resolves once connected. */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** What the server sent, and how long after `since` it closed the connection (null: still open after `waitMs`). */
export interface Closed {
  readonly afterMs: number | null;
  readonly received: string;
}

/** Resolves with what the server sent on `socket` and when it closed it, or null if it was still open at `waitMs`. */
export function closedAfter(socket: Socket, since: number, waitMs: number): Promise<Closed> {
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ afterMs: null, received }), waitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ afterMs: Date.now() - since, received });
    });
  });
}
