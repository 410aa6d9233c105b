import type { OperationSpec } from '@gw/types';
import type { WireRecord } from '../../wire/wire-record.ts';
import { missingFields, PAYMENT_NEEDS } from '../../operations/needed-to-act.ts';
import { refusal } from '../../refusals/errors.ts';

// UNKNOWNS U05: a payment without order_no, amount or currency is refused as a whole; nothing is created.
/** Complete: refuses (E004) a payment without order_no, amount or currency. */
export function refuseIncompletePayment(op: OperationSpec, record: WireRecord): void {
  if (op.path !== '/v1/authorise' && op.path !== '/v1/checkout') return;
  const missing = missingFields(record, PAYMENT_NEEDS);
  if (missing.length > 0) throw refusal('incompletePayment', missing);
}
