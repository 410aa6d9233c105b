let sequence = 0;

/** A fresh order number, `<prefix>-<pid>-<n>`: unique within the process and apart from other processes' numbers. */
export function orderNo(prefix = 'ORD'): string {
  sequence += 1;
  return `${prefix}-${process.pid}-${sequence}`;
}
