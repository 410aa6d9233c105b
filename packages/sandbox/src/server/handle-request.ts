import type { IncomingMessage, ServerResponse } from 'node:http';
import { operationsByPath } from '@gw/types';
import { isControlPath, serveControl } from './serve-control.ts';
import { isShopperPath, serveShopperPage } from '../pages/shopper-routes.ts';
import { errorResponse } from '../wire/body.ts';
import { hostRefusal } from './allowed-hosts.ts';
import { answerV1 } from './answer-v1.ts';
import { answerInternalError } from './internal-error.ts';
import type { SandboxParts } from './sandbox-parts.ts';
import { writeResponse } from './write-response.ts';

/** The path of a request target, without its query. */
function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Routes one HTTP request: a Host that is not the sandbox's is refused; /sandbox serves the shopper pages, the control
 * API and the console; a /v1 path takes POST. The promise of the route's work, or undefined when it was answered here.
 */
export function handleRequest(parts: SandboxParts, req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
  const path = pathOf(req.url);
  // First, on every route: a Host that is not the sandbox's is a page rebound to 127.0.0.1 (or a missing Host).
  if (!parts.allowsHost(req.headers.host)) {
    writeResponse(res, hostRefusal(path, req.headers.host));
    return;
  }
  // Shopper pages, the control API and the console all live under /sandbox: one prefix check for every /v1 request.
  if (path.startsWith('/sandbox')) {
    if (isShopperPath(path)) return serveShopperPage(parts.deps, parts.keeper, req, res, path, parts.limits.bodyTimeoutMs);
    if (parts.control && isControlPath(path)) return serveControl(parts.control, req, res);
  }
  const variants = operationsByPath.get(path);
  if (!variants) {
    writeResponse(res, errorResponse(404, `no operation at ${path}`));
    return;
  }
  if (req.method !== 'POST') {
    writeResponse(res, errorResponse(405, `${path} takes POST only`));
    return;
  }
  return answerV1(parts, req, res, path, variants);
}

/** The request listener of a sandbox's server: an error that escapes a route is kept and answered HTTP 500. */
export function requestListener(parts: SandboxParts): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    try {
      handleRequest(parts, req, res)?.catch((error: unknown) => answerInternalError(parts.state, res, error));
    } catch (error) {
      answerInternalError(parts.state, res, error);
    }
  };
}
