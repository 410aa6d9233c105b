// A forwarding HTTP proxy that records every request the browser makes, favicons included: Playwright's page events
// never show the browser's own requests (a page's /favicon.ico), so a 404 there is only seen from outside.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the browser made through the proxy, with the status it was answered (0: no answer). */
export interface ProxiedRequest {
  readonly method: string;
  readonly url: string;
  readonly status: number;
}

/** A proxy on 127.0.0.1; `chromiumArgs` route every request (loopback too) through it. */
export async function recordingProxy(): Promise<{ chromiumArgs: string[]; requests: ProxiedRequest[]; close(): Promise<void> }> {
  const requests: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    const target = new URL(req.url ?? '');
    const upstream = request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers },
      (answer) => {
        requests.push({ method: req.method ?? '', url: target.href, status: answer.statusCode ?? 0 });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      requests.push({ method: req.method ?? '', url: target.href, status: 0 });
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    chromiumArgs: [`--proxy-server=http://127.0.0.1:${port}`, '--proxy-bypass-list=<-loopback>'],
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
