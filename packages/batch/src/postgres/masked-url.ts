/** A ledger URL as it may be printed: its password, if any, replaced by `***` (`postgres://gw:***@db/payments`). */
export function maskedLedgerUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
}
