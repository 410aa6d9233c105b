import type { OperationName } from '@gw/types';
import type { HandlerContext } from '../../operations/context.ts';
import type { WireRecord } from '../../wire/wire-record.ts';
import { SandboxHttpError } from '../../refusals/errors.ts';
import { refusalText } from '../../refusals/refusal-codes.ts';
import { normaliseAddress } from '../remote-address.ts';
import { HANDLERS } from '../routes.ts';
import type { SandboxParts } from '../sandbox-parts.ts';
import { logRequest, type V1Call } from '../v1-call.ts';

/** What the operation's handler may use for this request. */
function handlerContext(parts: SandboxParts, call: V1Call): HandlerContext {
  const operation = call.op.name;
  const copies = call.duplicateNotification ? 2 : 1;
  return {
    state: parts.state,
    clock: parts.clock,
    ids: parts.ids,
    merchantId: call.merchantId,
    accountId: call.accountId,
    remoteAddress: normaliseAddress(call.req.socket.remoteAddress),
    baseUrl: parts.baseUrl,
    redirectExpiryMs: parts.deps.redirectExpiryMs,
    notify: (kind, url, key, payload) => parts.notify(kind, url, key, payload, operation, copies),
  };
}

/** Handler: runs the operation's handler on the record; a repeated order_no is HTTP 409 (1001). */
export function runHandler(parts: SandboxParts, call: V1Call): WireRecord {
  const ctx = handlerContext(parts, call);
  let result: WireRecord | null;
  try {
    result = HANDLERS[call.op.name as OperationName](call.record, ctx);
  } catch (error) {
    if (error instanceof SandboxHttpError) logRequest(parts, call, call.op.name, false, 'refused');
    throw error;
  }
  logRequest(parts, call, call.op.name, true, 'ok');
  if (result === null) throw new SandboxHttpError(409, refusalText('orderNoUsed', String(call.record.order_no)));
  return result;
}
