// The registry third-party packages come from (the machine's npm registry) and the CA file npm trusts for it.
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { plainNpmEnv } from '../pack.ts';
import { run } from './run.ts';

/** The machine's npm registry and, when npm is told to trust a CA file for it, that file's certificates. */
export async function upstreamRegistry(): Promise<{ upstream: string; ca?: string }> {
  const get = async (key: string) => (await run('npm', ['config', 'get', key], { cwd: tmpdir(), env: plainNpmEnv() })).stdout.trim();
  const cafile = await get('cafile');
  const ca = cafile && cafile !== 'null' && cafile !== 'undefined' && existsSync(cafile) ? readFileSync(cafile, 'utf8') : undefined;
  return { upstream: (await get('registry')) || 'https://registry.npmjs.org/', ...(ca ? { ca } : {}) };
}
