import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHmacSha256Signer, type Signer, type Verifier } from '@gw/signer-interface';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { GwConfig } from './config.ts';

/**
 * The signer for `encryption_data`. The gateway's algorithm is not shown (UNKNOWNS U41): `--signer <module>` loads a
 * team's own (a module exporting `createSigner(config)` that returns `{ sign, verify }`); `--secret` uses the reference
 * HMAC-SHA256 signer, which is what the sandbox uses.
 */
export async function loadSigner(config: GwConfig, cwd: string): Promise<Signer & Verifier> {
  if (config.signer) {
    const url = pathToFileURL(isAbsolute(config.signer) ? config.signer : join(cwd, config.signer)).href;
    const module = (await import(url)) as { createSigner?: (config: GwConfig) => (Signer & Verifier) | Promise<Signer & Verifier> };
    if (typeof module.createSigner !== 'function') throw new GwError(GW_ERROR_CODES.config, `${config.signer} exports no createSigner(config) function`, {});
    return module.createSigner(config);
  }
  if (config.secret) return createHmacSha256Signer({ secret: config.secret });
  throw new GwError(GW_ERROR_CODES.config, 'no signer: pass --secret (reference HMAC signer, as the sandbox uses) or --signer <module>', {});
}
