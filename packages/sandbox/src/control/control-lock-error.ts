import { isIP } from 'node:net';
import { GW_ERROR_CODES, GwError } from '@gw/types';
import { MIN_CONTROL_TOKEN_LENGTH } from './control-token.ts';

/** The sandbox's control settings would leave its control API and console open to others, or lock them with a weak token. */
export class SandboxControlLockError extends GwError<{ host: string; reason: 'open-on-a-shared-address' | 'weak-token' }> {
  override readonly name = 'SandboxControlLockError';
}

/** True for an address only this machine reaches: a loopback address or `localhost`. */
function isLocalAddress(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1';
}

/**
 * Refuses settings under which anyone who reaches the sandbox could drive its control API and console: listening on
 * an address other than loopback with them on and no `controlToken`, or a token shorter than 16 characters.
 */
export function checkControlLock(options: { host?: string; control?: boolean; controlToken?: string }): void {
  const host = options.host ?? '127.0.0.1';
  if (options.control === false) return;
  if (options.controlToken !== undefined && options.controlToken.length < MIN_CONTROL_TOKEN_LENGTH) {
    throw new SandboxControlLockError(
      GW_ERROR_CODES.config,
      `controlToken must be at least ${MIN_CONTROL_TOKEN_LENGTH} characters (a random one: openssl rand -base64 24)`,
      { host, reason: 'weak-token' },
    );
  }
  if (options.controlToken === undefined && !isLocalAddress(host)) {
    throw new SandboxControlLockError(
      GW_ERROR_CODES.config,
      `the sandbox would listen on ${host} with its control API and console open to anyone who reaches it: lock them with a token (controlToken, gw sandbox --control-token-env NAME) or turn them off (control: false, gw sandbox --no-control)`,
      { host, reason: 'open-on-a-shared-address' },
    );
  }
}
