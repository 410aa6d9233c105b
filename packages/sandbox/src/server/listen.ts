import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxOptions } from '../options/sandbox-options.ts';
import { hostAllowed } from './allowed-hosts.ts';
import { requestListener } from './handle-request.ts';
import type { SandboxParts } from './sandbox-parts.ts';

/**
 * Starts the sandbox's HTTP server within its limits on the `host` and `port` options (127.0.0.1, any free port), then
 * sets the parts' base URL and the Host allow-list from the bound address. Closes the state file when it cannot listen.
 */
export async function listen(parts: SandboxParts, options: SandboxOptions): Promise<{ server: Server; port: number }> {
  const server = createServer(parts.limits.serverOptions, requestListener(parts));
  server.maxConnections = parts.limits.maxConnections;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (error) {
    parts.store?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  parts.baseUrl = `http://${host}:${address.port}`;
  parts.allowsHost = hostAllowed({ listening: [options.host ?? '127.0.0.1', address.address], allowedHosts: options.allowedHosts ?? [] });
  return { server, port: address.port };
}

/** Stops a running sandbox once (later calls get the same promise): the sweep, notifications, state file, then the server and its connections. */
export function stopOnce(parts: SandboxParts, server: Server, sweep: NodeJS.Timeout): () => Promise<void> {
  let stopped: Promise<void> | null = null;
  return () =>
    (stopped ??= new Promise<void>((resolve) => {
      clearInterval(sweep);
      parts.notifier.stop();
      parts.store?.close();
      server.close(() => resolve());
      server.closeAllConnections();
    }));
}
