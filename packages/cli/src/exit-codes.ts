/** The documented exit statuses of `gw` (also in the README and `gw --help`). */
export const EXIT_CODES = {
  ok: 0,
  failure: 1,
  usage: 2,
  validation: 3,
  gateway: 4,
  http: 5,
  signature: 6,
  decode: 7,
  outcomeUnknown: 8,
  timeout: 9,
  batchIncomplete: 10,
  unsupportedNode: 11,
  notSent: 12,
  drift: 13,
  throttled: 14,
  interrupted: 130,
} as const;

const BY_ERROR_CODE: Record<string, number> = {
  GW_VALIDATION: EXIT_CODES.validation,
  GW_GATEWAY: EXIT_CODES.gateway,
  GW_HTTP: EXIT_CODES.http,
  GW_SIGNATURE: EXIT_CODES.signature,
  GW_DECODE: EXIT_CODES.decode,
  GW_OUTCOME_UNKNOWN: EXIT_CODES.outcomeUnknown,
  GW_TIMEOUT: EXIT_CODES.timeout,
  GW_CONFIG: EXIT_CODES.usage,
  GW_ITEMS: EXIT_CODES.validation,
  GW_INTERRUPTED: EXIT_CODES.interrupted,
  GW_NOT_SENT: EXIT_CODES.notSent,
  GW_THROTTLED: EXIT_CODES.throttled,
  // An answer that differs from the spec, refused by the client's `answers: 'refuse'`: not in the spec's shape.
  GW_ANSWER_DRIFT: EXIT_CODES.decode,
};

/**
 * The exit status for an error: 8 whenever it says the outcome is unknown (sent, and the answer was missing, unreadable
 * or unverifiable: the money may have moved), otherwise by its stable `code`; 1 only for what has none (a bug).
 */
export function exitCodeFor(error: unknown): number {
  const { code, details } = (error ?? {}) as { code?: unknown; details?: { outcome?: unknown } };
  if (typeof code !== 'string') return EXIT_CODES.failure;
  if (details?.outcome === 'unknown') return EXIT_CODES.outcomeUnknown;
  return BY_ERROR_CODE[code] ?? EXIT_CODES.failure;
}

/** The exit-status table for help texts. */
export function exitCodeHelp(): string {
  return [
    'Exit status:',
    '  0  success',
    '  1  unexpected failure',
    "  2  usage or configuration error; gw batch: refused before anything was sent (settings, a journal another run holds, --resume with a file that is not the batch's own)",
    '  3  invalid input: a record the spec refuses (every problem is listed), or --data that is not JSON',
    '  4  the gateway refused the request or one of its elements (a status other than 1); gw call prints the answer',
    '  5  HTTP error from the gateway',
    '  6  response signature did not verify',
    '  7  response or file could not be decoded',
    '  8  outcome unknown: the request was sent and no usable answer came (none, or reading or verifying it failed); reconcile with a query',
    '  9  timed out',
    ' 10  batch finished with failed, rejected or unknown orders',
    ' 11  this Node.js is too old: gw needs Node.js 22.18 or newer',
    ' 12  not sent: preparing or signing the request failed (a signer or HSM that is down); safe to run again once fixed',
    ' 13  gw spec drift / gw spec check: the report holds drift (the gateway differs from the spec)',
    ' 14  throttled: the gateway said slow down (HTTP 429, or 503 with Retry-After) and was not tried again (a money-moving request, or a query past its wait budget); by the default policy nothing was applied: run it again after the wait',
    '130  interrupted (Ctrl-C, the journal could not be written, e.g. a full disk, the --ledger database out of reach past --ledger-outage-ms, the journal lock taken): requests in flight were finished; resume with the printed command',
  ].join('\n');
}
