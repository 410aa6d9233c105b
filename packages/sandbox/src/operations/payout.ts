// /v1/payout: one payout per request_id; a repeated request_id with the same parameters returns the first payout,
// with other parameters it is refused (UNKNOWNS U40).
import { createHash } from 'node:crypto';
import type { HandlerContext } from './context.ts';
import { text, type WireRecord } from '../wire/wire-record.ts';
import { SandboxHttpError } from '../refusals/errors.ts';
import { refusalText } from '../refusals/refusal-codes.ts';
import { isoWithOffset } from '../state/ids.ts';
import { withoutCardData } from '../cards/card-data.ts';
import { DECLINE_CENTS, hasDeclineCents } from '../cards/test-cards.ts';
import { canonicalJson } from './canonical-json.ts';
import { withoutSignature } from '../wire/without-signature.ts';

/** `status` of a payout the sandbox fails on purpose (an amount ending in .05); the gateway's value is not shown (UNKNOWNS U30). */
const FAILED_PAYOUT_STATUS = 'FAILED';
/** `failure_type` of such a payout: the one value the seed shows (2.8). */
const FAILED_PAYOUT_TYPE = 'UNKNOWN';
const FAILED_PAYOUT_REASON = `Do not honour (sandbox: a payout amount ending in .${DECLINE_CENTS} fails)`;

function asNumber(value: unknown): number {
  // The seed types these response amounts as JSON numbers (UNKNOWNS U15); the sandbox echoes the decimal text's value.
  const n = typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : 0;
}

/** The parameters of a payout request: a digest of every member but the signature, in a canonical text (no card data kept). */
function parameters(record: WireRecord): string {
  return createHash('sha256')
    .update(canonicalJson(withoutSignature(record)))
    .digest('hex');
}

// UNKNOWNS U40: like an idempotency key reused with other parameters, the request is refused and nothing is paid.
function refuseOtherParameters(requestId: string): never {
  throw new SandboxHttpError(409, refusalText('otherPayoutParameters', requestId), [{ path: 'request_id', message: 'already used with other parameters' }]);
}

/**
 * Creates a payout (status `COMPLETED` at once, or `FAILED` for an amount ending in .05, UNKNOWNS U30), or returns the
 * one already made for the request_id.
 */
export function payout(record: WireRecord, ctx: HandlerContext): WireRecord {
  const requestId = text(record, 'request_id');
  const key = `${ctx.merchantId}\u0000${requestId}`;
  const existing = requestId ? ctx.state.payouts.get(key) : undefined;
  if (existing) {
    if (ctx.state.payoutParameters.get(key) !== parameters(record)) refuseOtherParameters(requestId);
    return { ...existing };
  }
  const now = isoWithOffset(ctx.clock());
  const fails = hasDeclineCents(record.payment_amount);
  const { encryption_data: _signature, ...echo } = withoutCardData(record);
  const beneficiary = (echo.beneficiary && typeof echo.beneficiary === 'object' ? echo.beneficiary : {}) as WireRecord;
  const bankDetails = (beneficiary.bank_details && typeof beneficiary.bank_details === 'object' ? beneficiary.bank_details : {}) as WireRecord;
  const response: WireRecord = {
    ...echo,
    merchant_id: ctx.merchantId,
    account_id: ctx.accountId,
    beneficiary: { ...beneficiary, bank_details: { ...bankDetails, local_clearing_system: 'ACH' } },
    amount_beneficiary_receives: asNumber(record.payment_amount),
    amount_payer_pays: asNumber(record.source_amount ?? record.payment_amount),
    fee_amount: 0,
    fee_currency: text(record, 'payment_currency'),
    created_at: now,
    last_updated_at: now,
    failure_reason: fails ? FAILED_PAYOUT_REASON : '',
    failure_type: fails ? FAILED_PAYOUT_TYPE : '',
    payer_id: ctx.ids.payerId(),
    transaction_id: ctx.ids.payoutId(),
    short_reference_id: ctx.ids.shortReference(),
    status: fails ? FAILED_PAYOUT_STATUS : 'COMPLETED',
  };
  if (requestId) {
    ctx.state.payouts.set(key, Object.freeze({ ...response }));
    ctx.state.payoutParameters.set(key, parameters(record));
  }
  ctx.state.record('payout', requestId || String(response.transaction_id));
  ctx.notify('payout', record.notify_url, String(response.transaction_id), response);
  return response;
}
