// Requests refused as a whole: what the sandbox will not act on, and the answer it gives instead (UNKNOWNS U05, U47).
import type { OperationSpec } from '@gw/types';
import type { WireRecord } from '../context.ts';
import { SandboxRefusal } from '../errors.ts';
import { missingFields, PAYMENT_NEEDS } from '../operations/needed-to-act.ts';

// UNKNOWNS U05: a payment without order_no, amount or currency is refused as a whole; nothing is created.
/** Throws an E004 refusal for a payment without order_no, amount or currency. */
export function refuseIncompletePayment(op: OperationSpec, record: WireRecord): void {
  if (op.path !== '/v1/authorise' && op.path !== '/v1/checkout') return;
  const missing = missingFields(record, PAYMENT_NEEDS);
  if (missing.length > 0) throw new SandboxRefusal('E004', `${missing.join(', ')} missing: the sandbox takes no payment without order_no, amount and currency`);
}

/** The response of a request refused as a whole, in the shape of the operation's response (UNKNOWNS U47). */
export function refusalRecord(op: OperationSpec, record: WireRecord, refusal: SandboxRefusal, merchant: { merchantId: string; accountId: string }): WireRecord {
  const text = `${refusal.code}:${refusal.message}`;
  const ids = { merchant_id: merchant.merchantId, account_id: merchant.accountId };
  const str = (name: string) => (typeof record[name] === 'string' ? record[name] : '');
  switch (op.responseSchema) {
    case 'CardRespon':
    case 'AlternativeRespon':
      return { ...ids, order_no: str('order_no'), amount: str('amount'), currency: str('currency'), order_status: '0', result_info: text };
    case 'CancelSubscriptionResponse':
      return { ...ids, recurring_id: str('recurring_id'), contract_name: str('contract_name'), cancel_status: '0', error_message: text };
    case 'PayoutResponse':
      return { ...ids, request_id: str('request_id'), status: 'FAILED', failure_reason: text, failure_type: 'UNKNOWN' };
    default:
      return { ...ids, return_status: '0', return_message: text };
  }
}
