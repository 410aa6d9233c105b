import { createClient, type ClientHooks } from '@gw/client';
import { SANDBOX_DEFAULT_MERCHANT, SANDBOX_DEFAULT_SECRET } from '@gw/sandbox/client';
import { requireGateway, resolveConfig, type GwConfig } from './config.ts';
import type { CliIo } from './io.ts';
import { loadSigner } from './signer.ts';

/** Flags every gateway command shares. */
export interface GatewayFlags {
  readonly baseUrl?: string;
  readonly merchantId?: string;
  readonly accountId?: string;
  readonly secret?: string;
  readonly signer?: string;
  readonly timeoutMs?: string;
  readonly concurrency?: string;
  readonly config?: string;
  /** Use the sandbox's default merchant, account and reference secret (never printed). */
  readonly sandboxDefaults?: boolean;
}

/** The resolved configuration of a gateway command. */
export function gatewayConfig(io: CliIo, flags: GatewayFlags): GwConfig {
  const sandbox = flags.sandboxDefaults
    ? { merchantId: SANDBOX_DEFAULT_MERCHANT.merchantId, accountId: SANDBOX_DEFAULT_MERCHANT.accountId, secret: SANDBOX_DEFAULT_SECRET }
    : {};
  return resolveConfig(io, { ...sandbox, ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) });
}

/** A client for the configured gateway (with `hooks`, e.g. to learn that a request was sent). */
export async function clientFor(io: CliIo, config: GwConfig, hooks?: ClientHooks): Promise<ReturnType<typeof createClient>> {
  const gateway = requireGateway(config);
  const signer = await loadSigner(gateway, io.cwd);
  return createClient({
    baseUrl: gateway.baseUrl,
    merchantId: gateway.merchantId,
    accountId: gateway.accountId,
    signer,
    verifier: signer,
    ...(hooks ? { hooks } : {}),
    ...(gateway.timeoutMs ? { timeoutMs: gateway.timeoutMs } : {}),
  });
}
