// The sandbox's control API (/sandbox/api/...) over HTTP, for the commands that drive a running sandbox.
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { envFlagValue } from '../env-flag.ts';

/** The JSON error the control API answers: `{ error: { code, message, details } }`. */
function controlError(text: string): { code?: string; message?: string } | null {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
    return error && typeof error.code === 'string' ? { code: error.code, message: typeof error.message === 'string' ? error.message : '' } : null;
  } catch {
    return null;
  }
}

/** `--control-token-env NAME`: a locked sandbox's control token, read from that environment variable (never printed). */
export function controlTokenFrom(env: Readonly<Record<string, string | undefined>>, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const read = envFlagValue(env, '--control-token-env', name);
  if ('problem' in read) throw new GwError(GW_ERROR_CODES.config, read.problem, {});
  return read.value;
}

/**
 * Calls the control API of the sandbox at `base` and returns its JSON; a sandbox without it (404) or any failure is
 * said plainly. `token`: a locked sandbox's control token (sent as `Authorization: Bearer`).
 */
export async function control(base: string, path: string, method: 'GET' | 'POST' | 'PUT', body?: unknown, token?: string): Promise<unknown> {
  const url = `${base.replace(/\/+$/, '')}${path}`;
  let response: Response;
  try {
    const init: RequestInit = {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    response = await fetch(url, init);
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new GwError(GW_ERROR_CODES.http, `the sandbox at ${base} cannot be reached: ${cause}`, { url });
  }
  const text = await response.text();
  const error = controlError(text);
  if (response.status === 404 && !error) {
    throw new GwError(GW_ERROR_CODES.http, `${method} ${path} answered 404: this sandbox has no control API (a sandbox with /sandbox/api/ is needed)`, {
      url,
      status: 404,
    });
  }
  if (response.status === 401 && !token) {
    throw new GwError(
      GW_ERROR_CODES.http,
      `${method} ${path} answered 401: this sandbox's control is locked with a token; pass --control-token-env NAME (the variable holding it)`,
      { url, status: 401, controlCode: 'unauthorized' },
    );
  }
  if (!response.ok) {
    const said = error ? `${error.code}: ${error.message}` : text.slice(0, 200);
    throw new GwError(GW_ERROR_CODES.http, `${method} ${path} answered HTTP ${response.status} (${said})`, {
      url,
      status: response.status,
      ...(error?.code ? { controlCode: error.code } : {}),
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new GwError(GW_ERROR_CODES.decode, `${method} ${path} did not answer JSON`, { url });
  }
}
