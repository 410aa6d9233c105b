import { operations, textOf, type OperationName } from '@gw/types';

/** The identifiers of a request that let a caller find out what happened to it. */
export interface RequestIdentifiers {
  /** Every `order_no` of the request: the top-level one, or each element's in a batch. */
  readonly order_no: readonly string[];
  /** Every `transaction_id` of the request, likewise. */
  readonly transaction_id: readonly string[];
  /** The payout's `request_id` (seed §4 rule 8), or null. */
  readonly request_id: string | null;
  /** The subscription's `recurring_id` (cancelSubscription), or null. */
  readonly recurring_id: string | null;
  /** The subscription's `contract_name` (cancelSubscription), or null. */
  readonly contract_name: string | null;
}

const LISTED = 5;

/** A member's text, or null when it is empty or not text. */
function identifier(record: Record<string, unknown>, name: string): string | null {
  return textOf(record[name]) || null;
}

function collect(records: readonly unknown[], name: string): string[] {
  const out: string[] = [];
  for (const record of records) {
    if (record && typeof record === 'object') {
      const value = identifier(record as Record<string, unknown>, name);
      if (value !== null) out.push(value);
    }
  }
  return out;
}

/** The identifiers of a request record; batch elements are read from the operation's array (`x-gw-batch`). */
export function requestIdentifiers(operation: OperationName, record: Record<string, unknown>): RequestIdentifiers {
  const batch = operations[operation].batch;
  const elements = batch && !batch.separator && Array.isArray(record[batch.array]) ? (record[batch.array] as unknown[]) : [record];
  return {
    order_no: collect(elements, 'order_no'),
    transaction_id: collect(elements, 'transaction_id'),
    request_id: identifier(record, 'request_id'),
    recurring_id: identifier(record, 'recurring_id'),
    contract_name: identifier(record, 'contract_name'),
  };
}

function list(values: readonly string[]): string {
  const shown = values.slice(0, LISTED).join(', ');
  return values.length > LISTED ? `${shown} and ${values.length - LISTED} more` : shown;
}

/** How to find out what happened to a request whose answer was lost, in one sentence. */
export function reconcileAdvice(operation: OperationName, ids: RequestIdentifiers): string {
  if (operation === 'payout') {
    return ids.request_id
      ? `Reconcile the payout by its request_id ${ids.request_id} before sending it again (what the gateway does with a repeated request_id is not shown, UNKNOWNS U40).`
      : 'The payout carried no request_id: reconcile it with the gateway operator before sending it again.';
  }
  if (operation === 'cancelSubscription') {
    return `Query the order that created the subscription (recurring_id ${ids.recurring_id ?? '(none)'}, contract_name ${ids.contract_name ?? '(none)'}): its subscription_result.recurring_status shows whether it is Inactived. Cancelling again is harmless only if the gateway treats it so.`;
  }
  const by: string[] = [];
  if (ids.order_no.length > 0) by.push(`order_no ${list(ids.order_no)}`);
  if (ids.transaction_id.length > 0) by.push(`transaction_id ${list(ids.transaction_id)}`);
  return by.length > 0
    ? `Reconcile with client.query by ${by.join(' / ')} (details.order_no and details.transaction_id hold them all) before sending it again.`
    : 'The request carried no order_no or transaction_id to query by: reconcile with the gateway operator before sending it again.';
}
