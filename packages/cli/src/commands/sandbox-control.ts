// The sandbox's control API (/sandbox/api/...) over HTTP, for the commands that drive a running sandbox.
import { GW_ERROR_CODES, GwError } from '@gw/types';

/** The JSON error the control API answers: `{ error: { code, message, details } }`. */
function controlError(text: string): { code?: string; message?: string } | null {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
    return error && typeof error.code === 'string' ? { code: error.code, message: typeof error.message === 'string' ? error.message : '' } : null;
  } catch {
    return null;
  }
}

/** Calls the control API of the sandbox at `base` and returns its JSON; a sandbox without it (404) or any failure is said plainly. */
export async function control(base: string, path: string, method: 'GET' | 'POST', body?: unknown): Promise<unknown> {
  const url = `${base.replace(/\/+$/, '')}${path}`;
  let response: Response;
  try {
    const init: RequestInit = { method, headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) } };
    if (body !== undefined) init.body = JSON.stringify(body);
    response = await fetch(url, init);
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new GwError(GW_ERROR_CODES.http, `the sandbox at ${base} cannot be reached: ${cause}`, { url });
  }
  const text = await response.text();
  const error = controlError(text);
  if (response.status === 404 && !error) {
    throw new GwError(GW_ERROR_CODES.http, `${method} ${path} answered 404: this sandbox has no control API (a sandbox with /sandbox/api/ is needed)`, { url, status: 404 });
  }
  if (!response.ok) {
    const said = error ? `${error.code}: ${error.message}` : text.slice(0, 200);
    throw new GwError(GW_ERROR_CODES.http, `${method} ${path} answered HTTP ${response.status} (${said})`, { url, status: response.status, ...(error?.code ? { controlCode: error.code } : {}) });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new GwError(GW_ERROR_CODES.decode, `${method} ${path} did not answer JSON`, { url });
  }
}
