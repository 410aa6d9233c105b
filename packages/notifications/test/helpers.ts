// Test helpers: a real node:http server on 127.0.0.1 running a receiver, and sample events.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NotificationEventInput } from '../src/index.ts';

export const SECRET = 'whsec-test-secret';

/** A declined direct card payment's result, as the sandbox reports it (no card data). */
export function cardEvent(overrides: Record<string, unknown> = {}): NotificationEventInput {
  return {
    kind: 'payment.authorised',
    operation: 'authoriseCard',
    data: {
      merchant_id: 'M100200',
      account_id: 'A300400',
      order_no: 'A-1',
      amount: '100.00',
      currency: 'USD',
      transaction_id: 'T2026112300000001',
      card: '411111******1111',
      order_status: '1',
      result_info: '0000:Success',
      ...overrides,
    },
  } as NotificationEventInput;
}

/** Starts `handler` on 127.0.0.1; returns its URL and the server (close it). */
export async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, server };
}

/** POSTs raw bytes with the given headers; returns status and parsed JSON answer. */
export async function deliver(url: string, body: string | Uint8Array, headers: Record<string, string>): Promise<{ status: number; json: any }> {
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, json: await response.json() };
}
