// A real npm registry on 127.0.0.1: Verdaccio 6 in this process, its storage in a temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runServer } from 'verdaccio';

/** A running registry: its URL, a publish token for `.npmrc`, and how to stop it. */
export interface LocalRegistry {
  readonly url: string;
  readonly token: string;
  /** The `.npmrc` lines that point npm and pnpm at this registry with the token. */
  readonly npmrc: string;
  stop(): Promise<void>;
}

/** What the registry serves: `@gw/*` only from its own storage; everything else, if `upstream` is given, proxied. */
export interface RegistryOptions {
  /**
   * The registry third-party packages (undici, ajv, commander, ...) are fetched from, e.g. the machine's npm registry.
   * `@gw/*` never goes there: published versions come only from this registry. Omit for a registry with no uplink.
   */
  readonly upstream?: string;
  /** PEM certificates the uplink trusts (npm's `cafile`, e.g. behind a TLS-inspecting proxy); Node's own otherwise. */
  readonly ca?: string;
  /** `@gw/*` is read only with a token, as from a company's private registry (default: anyone may read it). */
  readonly scopeNeedsToken?: boolean;
}

function configuration(dir: string, { upstream, ca, scopeNeedsToken }: RegistryOptions): Record<string, unknown> {
  const open = { access: '$all', publish: '$authenticated', unpublish: '$authenticated' };
  const scope = scopeNeedsToken ? { ...open, access: '$authenticated' } : open;
  return {
    self_path: join(dir, 'config.yaml'),
    storage: join(dir, 'storage'),
    auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 10 } },
    uplinks: upstream ? { upstream: { url: upstream, timeout: '60s', max_fails: 4, cache: true, ...(ca ? { ca } : {}) } } : {},
    packages: { '@gw/*': scope, '**': upstream ? { ...open, proxy: 'upstream' } : open },
    web: { enable: false },
    log: { type: 'stdout', format: 'json', level: 'fatal' },
    max_body_size: '50mb',
  };
}

/** Starts Verdaccio on 127.0.0.1 (a free port), creates a user and returns its token. */
export async function startRegistry(options: RegistryOptions = {}): Promise<LocalRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-registry-'));
  const app = await runServer(configuration(dir, options) as never);
  const server: Server = await new Promise((resolve, reject) => {
    const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
    listening.on('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const stop = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const name = 'gw-release';
    const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, password: `pw-${process.pid}-${Date.now()}`, type: 'user', roles: [], date: new Date().toISOString() }),
    });
    const body = (await response.json()) as { token?: string; error?: string };
    if (!response.ok || !body.token) throw new Error(`verdaccio: creating user ${name} failed (${response.status}): ${body.error ?? 'no token'}`);
    const host = url.replace(/^https?:/, '');
    return { url, token: body.token, npmrc: `registry=${url}\n${host}:_authToken=${body.token}\n`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
