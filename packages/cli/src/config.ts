import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import type { CliIo } from './io.ts';

/** Everything `gw` needs to reach a gateway. */
export interface GwConfig {
  readonly baseUrl?: string;
  readonly merchantId?: string;
  readonly accountId?: string;
  /** Secret of the reference HMAC-SHA256 signer (what the sandbox uses); never printed. */
  readonly secret?: string;
  /** A module exporting `createSigner(config)` returning a Signer and Verifier, for a real gateway's algorithm. */
  readonly signer?: string;
  readonly timeoutMs?: number;
  readonly concurrency?: number;
}

/** The environment variable of each setting (`GW_SECRET` for `secret`). */
export const CONFIG_ENV: Readonly<Record<keyof GwConfig, string>> = {
  baseUrl: 'GW_BASE_URL',
  merchantId: 'GW_MERCHANT_ID',
  accountId: 'GW_ACCOUNT_ID',
  secret: 'GW_SECRET',
  signer: 'GW_SIGNER',
  timeoutMs: 'GW_TIMEOUT_MS',
  concurrency: 'GW_CONCURRENCY',
};
const NUMERIC = new Set<keyof GwConfig>(['timeoutMs', 'concurrency']);

function configError(message: string): GwError {
  return new GwError(GW_ERROR_CODES.config, message, {});
}

function coerce(key: keyof GwConfig, value: unknown, where: string): string | number | undefined {
  if (value === undefined || value === '') return undefined;
  if (NUMERIC.has(key)) {
    const n = typeof value === 'number' ? value : Number(value);
    if (!Number.isInteger(n) || n <= 0) throw configError(`${where}: ${key} must be a positive whole number`);
    return n;
  }
  if (typeof value !== 'string') throw configError(`${where}: ${key} must be text`);
  return value;
}

/** Reads the config file: `--config`, else GW_CONFIG, else ./gw.config.json when present. */
function readConfigFile(io: CliIo, path: string | undefined): Partial<Record<keyof GwConfig, unknown>> {
  const chosen = path ?? io.env.GW_CONFIG ?? (existsSync(join(io.cwd, 'gw.config.json')) ? 'gw.config.json' : undefined);
  if (!chosen) return {};
  const full = isAbsolute(chosen) ? chosen : join(io.cwd, chosen);
  if (!existsSync(full)) throw configError(`config file ${chosen} does not exist`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(full, 'utf8'));
  } catch {
    throw configError(`config file ${chosen} is not valid JSON`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw configError(`config file ${chosen} must hold a JSON object`);
  const unknown = Object.keys(parsed).filter((k) => !(k in CONFIG_ENV));
  if (unknown.length > 0) throw configError(`config file ${chosen}: unknown setting(s) ${unknown.join(', ')}; known: ${Object.keys(CONFIG_ENV).join(', ')}`);
  return parsed as Partial<Record<keyof GwConfig, unknown>>;
}

/** Resolves the configuration: flags over environment (GW_*) over the config file. */
export function resolveConfig(io: CliIo, flags: Partial<Record<keyof GwConfig, unknown>> & { config?: string }): GwConfig {
  const file = readConfigFile(io, flags.config);
  const out: Record<string, string | number> = {};
  for (const key of Object.keys(CONFIG_ENV) as (keyof GwConfig)[]) {
    const value = coerce(key, flags[key], `--${key}`) ?? coerce(key, io.env[CONFIG_ENV[key]], CONFIG_ENV[key]) ?? coerce(key, file[key], 'config file');
    if (value !== undefined) out[key] = value;
  }
  return out as GwConfig;
}

/** The settings a command needs to talk to a gateway, or a GW_CONFIG error naming every missing one. */
export function requireGateway(config: GwConfig): Required<Pick<GwConfig, 'baseUrl' | 'merchantId' | 'accountId'>> & GwConfig {
  const missing = (['baseUrl', 'merchantId', 'accountId'] as const)
    .filter((k) => !config[k])
    .map((k) => `${k} (--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} or ${CONFIG_ENV[k]})`);
  if (!config.secret && !config.signer)
    missing.push('a signer: secret (--secret or GW_SECRET) for the reference HMAC signer, or signer (--signer or GW_SIGNER) naming a module');
  if (missing.length > 0) throw configError(`missing ${missing.join('; ')}`);
  return config as Required<Pick<GwConfig, 'baseUrl' | 'merchantId' | 'accountId'>> & GwConfig;
}

/** The configuration as it may be shown: the secret is never printed. */
export function describeConfig(config: GwConfig): Record<string, string | number> {
  const { secret, ...rest } = config;
  return { ...rest, ...(secret ? { secret: '[set, not shown]' } : {}) };
}
