// Names from OpenTelemetry's HTTP semantic conventions and gw's own, written once here.

/** The tracer's and meter's name: the package's. */
export const INSTRUMENTATION_NAME = '@gw/client';

/** Attribute names of a client span and of the duration histogram. */
export const ATTR = {
  method: 'http.request.method',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  urlFull: 'url.full',
  urlTemplate: 'url.template',
  statusCode: 'http.response.status_code',
  resendCount: 'http.request.resend_count',
  errorType: 'error.type',
  operation: 'gw.operation',
  outcome: 'gw.outcome',
  orders: 'gw.orders',
} as const;

/** The histogram of every try's duration, in seconds. */
export const DURATION_METRIC = 'http.client.request.duration';

/** The semantic conventions' explicit bucket boundaries for `http.client.request.duration` (seconds). */
export const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
