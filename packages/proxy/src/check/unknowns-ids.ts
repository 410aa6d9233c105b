import type { OperationSpec } from '@gw/types';

// Which UNKNOWNS entry a value seen at a place answers: order and payment states (U28), per-element statuses (U47),
// payout statuses (U30), any other enumerated-looking field (U06).
const ORDER_STATES: ReadonlySet<string> = new Set(['order_status', 'payment_status', 'refund_status']);

/** The UNKNOWNS id a value observation at `path` of an operation's answer helps settle. */
export function unknownsIdOf(op: OperationSpec, path: string): string {
  const name = path.slice(path.lastIndexOf('.') + 1);
  if (op.batch && name === op.batch.statusField) return 'U47';
  if (op.name === 'payout' && name.endsWith('status')) return 'U30';
  if (ORDER_STATES.has(name)) return 'U28';
  return 'U06';
}
