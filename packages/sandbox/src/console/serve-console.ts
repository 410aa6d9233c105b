// The web console at /sandbox/console: server-rendered pages over the control API's operations; forms post and redirect.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ControlDeps } from '../control/control-deps.ts';
import { CONTROL_ERROR_CODES, ControlError, stateNotKept } from '../control/control-error.ts';
import { answerWhenKept } from '../store/state-keeper.ts';
import { errorPage } from './error-page.ts';
import { readText, refuseCrossOrigin } from '../control/http.ts';
import { clockPage } from './clock-page.ts';
import { runConsoleForm } from './console-actions.ts';
import { faultsPage } from './faults-page.ts';
import { notificationsPage } from './notifications-page.ts';
import { orderPage } from './order-page.ts';
import { ordersPage } from './orders-page.ts';

function render(deps: ControlDeps, subPath: string, query: URLSearchParams): string | null {
  const notice = query.get('notice');
  if (subPath === '' || subPath === 'orders') return ordersPage(deps, query, notice);
  const order = /^orders\/([^/]+)$/.exec(subPath);
  if (order) return orderPage(deps, decodeURIComponent(order[1]!), notice);
  if (subPath === 'notifications') return notificationsPage(deps, notice);
  if (subPath === 'faults') return faultsPage(deps, notice);
  if (subPath === 'clock') return clockPage(deps, notice);
  return null;
}

/** Answers a console page (GET) or form (POST, then 303 to the page with a notice). */
export async function serveConsole(deps: ControlDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const subPath = url.pathname.slice('/sandbox/console'.length).replace(/^\/|\/$/g, '');
  if (req.method === 'POST') {
    refuseCrossOrigin(req);
    const form = new URLSearchParams(await readText(req, { limit: deps.maxBodyBytes, idleMs: deps.bodyTimeoutMs }));
    const before = deps.keeper.changeCount;
    const result = runConsoleForm(deps, subPath, form);
    if (!result) throw new ControlError(404, CONTROL_ERROR_CODES.notFound, `no console form at ${url.pathname}`);
    const target = `${result.back}${result.back.includes('?') ? '&' : '?'}notice=${encodeURIComponent(result.notice)}`;
    // Once a state file kept the change; a page saying it was not when it could not.
    answerWhenKept(
      deps.keeper,
      before,
      () => res.writeHead(303, { location: target, 'content-length': 0 }).end(),
      (failure) => {
        const html = errorPage(stateNotKept(failure));
        res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) }).end(html);
      },
    );
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw new ControlError(405, CONTROL_ERROR_CODES.methodNotAllowed, `${url.pathname} takes GET (pages) or POST (forms)`);
  const html = render(deps, subPath, url.searchParams);
  if (html === null) throw new ControlError(404, CONTROL_ERROR_CODES.notFound, `no console page at ${url.pathname}`);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html), 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : html);
}
