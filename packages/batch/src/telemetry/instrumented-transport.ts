import type { BatchTransport } from '../send/batch-transport.ts';
import type { RunTelemetry } from './run-telemetry.ts';

/**
 * The transport with each request counted in flight (`gw.batch.requests.in_flight`, once the pacer let it go) and
 * each reconcile query counted (`gw.batch.reconcile.queries`). The requests run in the caller's context, so the
 * client's span of each comes out under the batch's send or reconcile span.
 */
export function instrumentedTransport(inner: BatchTransport, telemetry: RunTelemetry): BatchTransport {
  return {
    send: (operation, orders, guard) => telemetry.request(operation, false, () => inner.send(operation, orders, guard)),
    query: (selection) => telemetry.request('query', true, () => inner.query(selection)),
  };
}
