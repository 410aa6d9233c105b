import { SandboxHttpError } from '../../refusals/errors.ts';
import { normaliseAddress } from '../remote-address.ts';
import type { SandboxParts } from '../sandbox-parts.ts';
import { logRequest, type V1Call } from '../v1-call.ts';

/** Allow-list: refuses (HTTP 403) an IP allow-listed operation from an address not registered for it (seed 5.4). */
export function checkAllowList(parts: SandboxParts, call: V1Call): void {
  if (!call.op.ipAllowListed) return;
  const address = normaliseAddress(call.req.socket.remoteAddress);
  if (parts.allowIps.has(address)) return;
  logRequest(parts, call, call.op.name, false, 'refused');
  throw new SandboxHttpError(403, `${address} is not registered for ${call.op.path} (seed 5.4)`);
}
