// The answer of a request refused as a whole (UNKNOWNS U47): the operation's own response record, saying why.
import type { OperationSpec } from '@gw/types';
import { text, type WireRecord } from '../wire/wire-record.ts';
import type { SandboxRefusal } from '../refusals/errors.ts';

/** The response of a request refused as a whole, in the shape of the operation's response (UNKNOWNS U47). */
export function refusalRecord(
  op: OperationSpec,
  record: WireRecord,
  refusal: SandboxRefusal,
  merchant: { readonly merchantId: string; readonly accountId: string },
): WireRecord {
  const reason = `${refusal.code}:${refusal.message}`;
  const ids = { merchant_id: merchant.merchantId, account_id: merchant.accountId };
  switch (op.responseSchema) {
    case 'CardRespon':
    case 'AlternativeRespon':
      return {
        ...ids,
        order_no: text(record, 'order_no'),
        amount: text(record, 'amount'),
        currency: text(record, 'currency'),
        order_status: '0',
        result_info: reason,
      };
    case 'CancelSubscriptionResponse':
      return { ...ids, recurring_id: text(record, 'recurring_id'), contract_name: text(record, 'contract_name'), cancel_status: '0', error_message: reason };
    case 'PayoutResponse':
      return { ...ids, request_id: text(record, 'request_id'), status: 'FAILED', failure_reason: reason, failure_type: 'UNKNOWN' };
    default:
      return { ...ids, return_status: '0', return_message: reason };
  }
}
