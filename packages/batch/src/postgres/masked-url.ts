/** Query parameters of a ledger URL that are as secret as its password: a password, and the paths of certificate and key files. */
const SECRET_PARAMETER_NAMES = '(?:password|sslpassword|sslkey|sslcert|sslrootcert)';
const SECRET_PARAMETERS = new RegExp(`([?&]${SECRET_PARAMETER_NAMES}=)[^&#]*`, 'gi');
/** The password of a URL's user (`//user:password@`). */
const PASSWORD = /(\/\/[^:/@]*:)[^@]*@/;

/**
 * A ledger URL as it may be printed: its password, and any password or certificate path among its parameters,
 * replaced by `***` (`postgres://gw:***@db/payments?sslmode=verify-full&sslrootcert=***`).
 */
export function maskedLedgerUrl(url: string): string {
  return url.replace(PASSWORD, '$1***@').replace(SECRET_PARAMETERS, '$1***');
}

/** True when a ledger URL holds what `maskedLedgerUrl` masks: a password, or a password or certificate path among its parameters. */
export function ledgerUrlHoldsSecrets(url: string): boolean {
  return PASSWORD.test(url) || new RegExp(`[?&]${SECRET_PARAMETER_NAMES}=`, 'i').test(url);
}
