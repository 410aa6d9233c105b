// The answer of a request refused as a whole (UNKNOWNS U47): the operation's own response record, saying why.
import type { OperationSpec } from '@gw/types';
import type { WireRecord } from '../context.ts';
import type { SandboxRefusal } from '../errors.ts';

/** The response of a request refused as a whole, in the shape of the operation's response (UNKNOWNS U47). */
export function refusalRecord(op: OperationSpec, record: WireRecord, refusal: SandboxRefusal, merchant: { readonly merchantId: string; readonly accountId: string }): WireRecord {
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
