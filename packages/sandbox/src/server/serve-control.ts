// Serves the control API (/sandbox/api/) and the console (/sandbox/console) on the sandbox's own address.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorPage } from '../console/error-page.ts';
import { serveConsole } from '../console/serve-console.ts';
import { bodyReader, matchRoute } from '../control/api-routes.ts';
import type { ControlDeps } from '../control/control-deps.ts';
import { answerWhenKept } from '../store/state-keeper.ts';
import { CONTROL_ERROR_CODES, ControlError, stateNotKept } from '../control/control-error.ts';
import { readText, refuseCrossOrigin, sendJson } from '../control/http.ts';
import { apiAuthorised, consoleAuthorised, consoleSession, CONTROL_COOKIE, tokenMatches } from '../control/control-token.ts';
import { loginPage } from '../console/login-page.ts';

/** Where the control API's routes start. */
export const CONTROL_API_PREFIX = '/sandbox/api/';
/** Where the console's pages start. */
export const CONSOLE_PREFIX = '/sandbox/console';

/** True for a path the control API or the console answers. */
export function isControlPath(path: string): boolean {
  return path.startsWith('/sandbox/api') || path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`);
}

async function serveApi(deps: ControlDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? 'GET';
  const subPath = url.pathname.startsWith(CONTROL_API_PREFIX) ? url.pathname.slice(CONTROL_API_PREFIX.length) : '';
  const found = matchRoute(method, subPath);
  if ('allowed' in found) {
    if (found.allowed.length === 0)
      throw new ControlError(404, CONTROL_ERROR_CODES.notFound, `no control API route ${url.pathname} (see the README's "Control API")`, {
        path: url.pathname,
      });
    res.setHeader('allow', found.allowed.join(', '));
    throw new ControlError(405, CONTROL_ERROR_CODES.methodNotAllowed, `${url.pathname} takes ${found.allowed.join(' or ')}, not ${method}`, {
      allowed: found.allowed,
    });
  }
  if (method !== 'GET') refuseCrossOrigin(req);
  const before = deps.keeper.changeCount;
  const value = await found.route.run(deps, { req, params: found.params, query: url.searchParams, body: bodyReader(req, deps) });
  // From the check phase, as /v1 answers are: once a state file has kept what this request changed (503 if it could not).
  answerWhenKept(
    deps.keeper,
    before,
    () => sendJson(res, 200, value),
    (failure) => sendJson(res, 503, stateNotKept(failure).toJSON()),
  );
}

/** Answers a control API or console request; errors become `{ error: { code, message, details } }` with their status. */
export async function serveControl(deps: ControlDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://sandbox');
    decodeURIComponent(url.pathname);
  } catch {
    sendJson(res, 400, new ControlError(400, CONTROL_ERROR_CODES.invalidRequest, 'the path is not valid percent-encoding').toJSON());
    return;
  }
  try {
    const api = url.pathname.startsWith('/sandbox/api');
    if (deps.controlToken !== null && !(await authorised(deps, deps.controlToken, req, res, url, api))) return;
    if (api) await serveApi(deps, req, res, url);
    else await serveConsole(deps, req, res, url);
  } catch (error) {
    if (!(error instanceof ControlError)) throw error;
    if (url.pathname.startsWith('/sandbox/api')) sendJson(res, error.status, error.toJSON());
    else serveConsoleError(res, error);
  }
}

/**
 * A sandbox locked with a control token: the API takes `Authorization: Bearer <token>` (else 401), the console its
 * session cookie, set by the login form (else the form, 401). False when the request was answered here.
 */
async function authorised(deps: ControlDeps, token: string, req: IncomingMessage, res: ServerResponse, url: URL, api: boolean): Promise<boolean> {
  if (api) {
    if (apiAuthorised(req, token)) return true;
    res.setHeader('www-authenticate', 'Bearer realm="gw sandbox control"');
    throw new ControlError(
      401,
      CONTROL_ERROR_CODES.unauthorized,
      "this sandbox's control API needs its control token: send Authorization: Bearer <token> (the token its operator set with controlToken / gw sandbox --control-token-env NAME)",
    );
  }
  if (url.pathname === `${CONSOLE_PREFIX}/login` && req.method === 'POST') {
    refuseCrossOrigin(req);
    const given = new URLSearchParams(await readText(req, { limit: deps.maxBodyBytes, idleMs: deps.bodyTimeoutMs })).get('token') ?? '';
    if (!tokenMatches(given, token)) {
      sendHtml(res, 401, loginPage(true));
      return false;
    }
    const cookie = `${CONTROL_COOKIE}=${consoleSession(token)}; HttpOnly; SameSite=Strict; Path=/sandbox; Max-Age=43200`;
    res.writeHead(303, { location: CONSOLE_PREFIX, 'set-cookie': cookie, 'content-length': 0 }).end();
    return false;
  }
  if (consoleAuthorised(req, token)) return true;
  sendHtml(res, 401, loginPage(false));
  return false;
}

function sendHtml(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

function serveConsoleError(res: ServerResponse, error: ControlError): void {
  const html = errorPage(error);
  res.writeHead(error.status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}
