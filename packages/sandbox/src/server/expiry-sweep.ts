import { expireDuePayments } from '../lifecycle/redirect-payment.ts';
import { recordInternalError } from './internal-error.ts';
import type { SandboxParts } from './sandbox-parts.ts';

/** Expires abandoned redirect payments every quarter of the expiry time (10 ms to 1 s); unref'd, it never keeps the process alive. */
export function startExpirySweep(parts: SandboxParts): NodeJS.Timeout {
  const { deps } = parts;
  const sweep = setInterval(
    () => {
      try {
        expireDuePayments(deps, deps.clock());
      } catch (error) {
        recordInternalError(parts.state, error);
      }
    },
    Math.max(10, Math.min(1000, Math.floor(deps.redirectExpiryMs / 4))),
  );
  sweep.unref();
  return sweep;
}
