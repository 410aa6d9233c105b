import { SERVER_LIMIT_DEFAULTS } from '@gw/types';
import type { Verifier } from '@gw/signer-interface';
import { RecordValidator } from '@gw/types';
import { checkExchange } from '../check/check-exchange.ts';
import { DriftRecorder } from '../report/drift-recorder.ts';
import type { DriftReport } from '../report/report-types.ts';
import { RequestRate } from '../report/request-rate.ts';
import { harExchanges } from './har-exchanges.ts';

/** How a recording is checked. */
export interface HarCheckOptions {
  /** Verifies answers' `encryption_data`, as the proxy's `verifier`; default none (signatures not checked). */
  readonly verifier?: Verifier;
  /** Most bytes of a body checked, as the proxy's; default 1 MiB (UNKNOWNS U51). */
  readonly maxBodyBytes?: number;
}

/** A HAR recording's check: the same report a proxy writes, and the entries that were not `/v1` exchanges. */
export interface HarCheck {
  /** The report, in the format `gw proxy --report` writes and `gw spec drift` reads. */
  readonly report: DriftReport;
  /** Entries that were not `/v1` exchanges (pages, images, …) or got no answer: not checked. */
  readonly skipped: number;
}

/**
 * Checks the `/v1` exchanges of a parsed HAR 1.2 recording (`JSON.parse` of the file) exactly as `startProxy` checks
 * live traffic, each timed by its `startedDateTime`; bad HAR input is a GwError naming every problem.
 */
export async function checkHar(har: unknown, options: HarCheckOptions = {}): Promise<HarCheck> {
  const limit = options.maxBodyBytes ?? SERVER_LIMIT_DEFAULTS.maxBodyBytes;
  const { exchanges, skipped } = harExchanges(har, limit);
  let now = exchanges[0]?.at ?? new Date();
  const upstreams = [...new Set(exchanges.map((e) => e.upstream))];
  const recorder = new DriftRecorder(upstreams.join(', ') || '(none)', options.verifier !== undefined, () => now);
  const ctx = { recorder, validator: new RecordValidator(), verifier: options.verifier ?? null, maxInputBytes: limit };
  // The recording is in start order, so the pace of each request is counted from the recorded starts.
  const rate = new RequestRate();
  for (const { exchange, at, answeredAt } of exchanges) {
    now = at;
    await checkExchange(exchange, ctx, { answeredAt, pace: rate.arrived(exchange.path, at.getTime()) });
  }
  return { report: recorder.report, skipped };
}
