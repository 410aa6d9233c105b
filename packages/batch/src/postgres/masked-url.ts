/** Query parameters of a ledger URL that are as secret as its password: a password, and the paths of certificate and key files. */
const SECRET_PARAMETERS = /([?&](?:password|sslpassword|sslkey|sslcert|sslrootcert)=)[^&#]*/gi;

/**
 * A ledger URL as it may be printed: its password, and any password or certificate path among its parameters,
 * replaced by `***` (`postgres://gw:***@db/payments?sslmode=verify-full&sslrootcert=***`).
 */
export function maskedLedgerUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@').replace(SECRET_PARAMETERS, '$1***');
}
