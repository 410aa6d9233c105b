import type { InputRange } from '../intake/input-digest.ts';
import type { OrderOutcome } from '../outcome.ts';
import type { ChunkEntry, CommitColumns } from './chunk-rows.ts';

/**
 * The ledger's statements. Each step of a chunk is one statement, so one round trip and atomic: intake (claims, the
 * chunk, intake rejections, the intake mark), claim (a lease), sent, and commit (outcomes, resends, the chunk done,
 * all fenced by the lease's token).
 */

/**
 * The channel a statement that adds chunks notifies (the batch id as payload, delivered at commit): idle workers of
 * every process LISTEN on it and look for work at once instead of at their next poll.
 */
export const CHUNKS_CHANNEL = 'gw_batch_chunks';

/** The channel a throttle notifies: payload `<batch id> <wait ms>`; every worker of the batch pauses that long. */
export const PAUSE_CHANNEL = 'gw_batch_pause';

/**
 * Sends are spaced this many ms apart at `rate` a second: 5% over 1000/rate, so that `rate` slots span 1050 ms and no
 * second holds more than `rate` at the gateway though each send is up to 50 ms after its slot (a worker's timers, its
 * way from the ledger and to the gateway): a worker later than SLOT_LATENESS_MS (half of those 50) hands the chunk back.
 */
const SLOT_MS = '(1050.0 / g.rate)';

/** The database's time, in epoch ms: read by a worker before its first step, to place the send slots on its own clock. */
export const CLOCK_NOW = `SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms`;

/** How late after its slot a worker may still write a chunk's request (ms, on its own clock); later, it hands it back. */
export const SLOT_LATENESS_MS = 25;

/** After a throttle the pace is this share of the requests the gateway let through in the last second. */
const PACE_DECREASE = 0.95;

/** The pace grows again by this share a second (at least 0.2 requests per second per second). */
const PACE_INCREASE = 0.005;

/**
 * Takes chunks in (its parameters: `IntakeParams`, put in their places by `intakeValues`). Writes nothing when the
 * batch does not exist (moved 0), and only while the intake mark is still at `after` (the previous statement's
 * `next`), so a statement tried again after its connection was lost (it had been written, or another process took the
 * intake over meanwhile) writes nothing twice; `at` is the mark as found. An order whose claim another batch holds goes
 * into its chunk's `skip` (never sent) and gets a rejection row; a chunk left with no order is not written. Only then
 * are chunk texts parsed (to put the order in the rejection). The input read since the previous intake statement is
 * kept in `gw_batch_input` with the chunks it gave.
 */
export const INTAKE = `
WITH batch AS (SELECT 1 FROM gw_batch WHERE id = $1 AND intake_next = $10),
keyed AS (SELECT k, idx, grp FROM unnest($3::text[], $4::bigint[], $5::int[]) AS u(k, idx, grp) WHERE EXISTS (SELECT 1 FROM batch)),
claimed AS (
  INSERT INTO gw_order_claim (operation, order_key, batch_id, idx)
  SELECT $2, k, $1, idx FROM keyed ORDER BY k
  ON CONFLICT DO NOTHING RETURNING idx
),
lost AS MATERIALIZED (SELECT k, idx, grp FROM keyed WHERE idx NOT IN (SELECT idx FROM claimed)),
bodies AS (SELECT body, n, grp FROM unnest(string_to_array($6::text, E'\n'), $7::int[]) WITH ORDINALITY AS b(body, n, grp) WHERE EXISTS (SELECT 1 FROM batch)),
kept AS MATERIALIZED (
  SELECT b.grp, nextval('gw_batch_chunk_seq') AS chunk, s.skip
  FROM bodies b LEFT JOIN LATERAL (SELECT array_agg(idx ORDER BY idx) AS skip, count(*) AS n FROM lost WHERE lost.grp = b.grp) s ON true
  WHERE b.n > coalesce(s.n, 0)
),
chunk AS (
  INSERT INTO gw_batch_chunk (batch_id, chunk, body, skip)
  SELECT $1, k.chunk, b.body, k.skip FROM kept k JOIN bodies b ON b.grp = k.grp ORDER BY k.chunk
  RETURNING chunk
),
lost_orders AS (
  SELECT (e->>'index')::bigint AS idx, e->'order' AS ord FROM bodies b, jsonb_array_elements(b.body::jsonb) e
  WHERE b.grp IN (SELECT grp FROM lost)
),
conflicts AS (
  SELECT l.idx, l.k, o.ord, c.batch_id AS other, c.idx AS other_idx
  FROM lost l JOIN lost_orders o ON o.idx = l.idx LEFT JOIN gw_order_claim c ON c.operation = $2 AND c.order_key = l.k
),
rejected AS (
  INSERT INTO gw_batch_outcome (batch_id, idx, kind, outcome)
  SELECT $1, idx, 'rejected', jsonb_build_object('index', idx, 'kind', 'rejected', 'order', ord, 'problems', '[]'::jsonb,
    'reason', 'already in batch ' || coalesce(other || ' (input order #' || other_idx || ')', '(another batch, committed at the same moment)') || ': not sent by this batch, which would apply it twice')
  FROM conflicts
  UNION ALL
  SELECT $1, (o->>'index')::bigint, 'rejected', o FROM jsonb_array_elements($8::jsonb) o WHERE EXISTS (SELECT 1 FROM batch)
  ON CONFLICT (batch_id, idx) DO NOTHING
  RETURNING idx
),
input AS (INSERT INTO gw_batch_input (batch_id, from_idx, upto, digest) SELECT $1, $11, $12, $13 WHERE $13::text IS NOT NULL AND EXISTS (SELECT 1 FROM batch) RETURNING 1),
moved AS (UPDATE gw_batch SET intake_next = greatest(intake_next, $9) WHERE id = $1 AND intake_next = $10 RETURNING 1)
SELECT (SELECT count(*)::int FROM moved) AS moved, (SELECT intake_next FROM gw_batch WHERE id = $1) AS at, (SELECT count(*)::int FROM chunk) AS chunks, (SELECT count(*)::int FROM rejected) AS rejected,
  (SELECT pg_notify('${CHUNKS_CHANNEL}', $1) WHERE EXISTS (SELECT 1 FROM chunk)) IS NULL AS woke,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('idx', idx, 'k', k)), '[]'::jsonb) FROM conflicts WHERE other IS NULL) AS unnamed`;

/**
 * INTAKE when none of the orders is claimed yet, as is usual: a plain insert of the claims, about half the database's
 * work of one that resolves conflicts, and no claim handed back (none can be lost: every order keeps its place, every
 * chunk is written whole). A claim another batch holds makes it fail whole (unique violation, nothing written); INTAKE
 * then takes the same chunks in. The same parameters as INTAKE (`intakeValues`; each claim's chunk and each chunk's
 * count of orders are read only by INTAKE, named here so that both take one list).
 */
export const INTAKE_UNCLAIMED = `
WITH batch AS (SELECT 1 FROM gw_batch WHERE id = $1 AND intake_next = $10),
claimed AS (
  INSERT INTO gw_order_claim (operation, order_key, batch_id, idx)
  SELECT $2, k, $1, idx FROM unnest($3::text[], $4::bigint[], $5::int[]) AS u(k, idx, grp) WHERE EXISTS (SELECT 1 FROM batch) ORDER BY k
),
bodies AS (SELECT body, grp FROM unnest(string_to_array($6::text, E'\n'), $7::int[]) WITH ORDINALITY AS b(body, n, grp) WHERE EXISTS (SELECT 1 FROM batch)),
chunk AS (
  INSERT INTO gw_batch_chunk (batch_id, chunk, body)
  SELECT $1, nextval('gw_batch_chunk_seq'), body FROM bodies ORDER BY grp
  RETURNING chunk
),
rejected AS (
  INSERT INTO gw_batch_outcome (batch_id, idx, kind, outcome)
  SELECT $1, (o->>'index')::bigint, 'rejected', o FROM jsonb_array_elements($8::jsonb) o WHERE EXISTS (SELECT 1 FROM batch)
  ON CONFLICT (batch_id, idx) DO NOTHING
  RETURNING idx
),
input AS (INSERT INTO gw_batch_input (batch_id, from_idx, upto, digest) SELECT $1, $11, $12, $13 WHERE $13::text IS NOT NULL AND EXISTS (SELECT 1 FROM batch) RETURNING 1),
moved AS (UPDATE gw_batch SET intake_next = greatest(intake_next, $9) WHERE id = $1 AND intake_next = $10 RETURNING 1)
SELECT (SELECT count(*)::int FROM moved) AS moved, (SELECT intake_next FROM gw_batch WHERE id = $1) AS at, (SELECT count(*)::int FROM chunk) AS chunks, (SELECT count(*)::int FROM rejected) AS rejected,
  (SELECT pg_notify('${CHUNKS_CHANNEL}', $1) WHERE EXISTS (SELECT 1 FROM chunk)) IS NULL AS woke, '[]'::jsonb AS unnamed`;

/** One chunk for an intake statement: its orders as stored, and the claim of each money-moving order in it. */
export interface IntakeChunk {
  readonly entries: readonly ChunkEntry[];
  /** `key` as stored (pg-ledger.ts, `storedKey`); orders that move no money have none. */
  readonly claims: readonly { readonly key: string; readonly index: number }[];
}

/** INTAKE's (and INTAKE_UNCLAIMED's) parameters by name. */
export interface IntakeParams {
  readonly batch: string;
  readonly operation: string;
  readonly chunks: readonly IntakeChunk[];
  /** Orders intake refused, each with its rejection. */
  readonly refused: readonly OrderOutcome[];
  /** The intake mark once this statement is written. */
  readonly next: number;
  /** The intake mark this statement follows: it writes only while the mark is still there. */
  readonly after: number;
  /** The input read since the previous intake statement, null when none. */
  readonly read: InputRange | null;
}

/**
 * INTAKE's positional values from its named parameters, the one place that knows each `$n`. Each chunk's orders go as
 * one line of a text (a JSON text never holds a raw newline, and a text array's quoting would cost more); each claim as
 * an element of three arrays (key, input index, its chunk: 1-based, in this statement).
 */
export function intakeValues(p: IntakeParams): unknown[] {
  const claims = p.chunks.flatMap((chunk, at) => chunk.claims.map((claim) => ({ ...claim, chunk: at + 1 })));
  return [
    p.batch, // $1
    p.operation, // $2
    claims.map((c) => c.key), // $3
    intArray(claims.map((c) => c.index)), // $4
    intArray(claims.map((c) => c.chunk)), // $5
    p.chunks.map((c) => JSON.stringify(c.entries)).join('\n'), // $6
    intArray(p.chunks.map((c) => c.entries.length)), // $7
    JSON.stringify(p.refused), // $8
    p.next, // $9
    p.after, // $10
    p.read?.from ?? null, // $11
    p.read?.upto ?? null, // $12
    p.read?.digest ?? null, // $13
  ];
}

/** Names the other batch of conflicts the intake statement's snapshot could not see ($1 batch, $2 idx[], $3 keys[], $4 operation). */
export const NAME_CONFLICTS = `
UPDATE gw_batch_outcome o SET outcome = jsonb_set(o.outcome, '{reason}', to_jsonb('already in batch ' || c.batch_id || ' (input order #' || c.idx || '): not sent by this batch, which would apply it twice'))
FROM unnest($2::bigint[], $3::text[]) AS u(idx, k) JOIN gw_order_claim c ON c.operation = $4 AND c.order_key = u.k
WHERE o.batch_id = $1 AND o.idx = u.idx`;

/**
 * How long a new holder waits before it may query a chunk an earlier holder had (its `quiet_at`, before this lease,
 * less now: ms, 0 when past or never leased). Each lease and renewal moves `quiet_at` to the lease's end plus the
 * holder's send window (its request timeout plus its send margin): a holder sends only while its lease has the margin
 * left, and a request it sent is over within its timeout, so past `quiet_at` no earlier send is still in flight.
 */
const QUIET_WAIT = `greatest(0, ceil(extract(epoch FROM (quiet_before - clock_timestamp())) * 1000))::int AS quiet_wait_ms`;

/**
 * $1 batch, $2 total, $3-$5 the input read since the last intake statement (from, upto, digest; null when none), $6 the
 * whole input's digest: every input order is taken in. Once only (a retry after a lost connection finds it sealed);
 * notified, since a worker idle for want of chunks may find the batch over (its last chunk was done before the seal).
 */
export const SEAL = `
WITH sealed AS (UPDATE gw_batch SET sealed = true, total = $2, input_digest = $6 WHERE id = $1 AND NOT sealed RETURNING id),
input AS (INSERT INTO gw_batch_input (batch_id, from_idx, upto, digest) SELECT $1, $3, $4, $5 FROM sealed WHERE $5::text IS NOT NULL RETURNING 1)
SELECT pg_notify('${CHUNKS_CHANNEL}', id) FROM sealed`;

/** $1 batch: what the ledger holds of the batch's input (the ranges read, in order; the totals). */
export const RECORDED_INPUT = `
SELECT b.sealed, b.total, b.declared_total,
  (SELECT coalesce(json_agg(json_build_array(i.from_idx, i.upto, i.digest) ORDER BY i.upto), '[]'::json) FROM gw_batch_input i WHERE i.batch_id = $1) AS ranges
FROM gw_batch b WHERE b.id = $1`;

/** $1 batch, $2-$3 input indexes [from, upto): the orders the ledger keeps there (in chunks, or refused at intake). */
export const ORDERS_AT = `
SELECT (e->>'index')::bigint AS idx, e->'order' AS ord FROM gw_batch_chunk c, jsonb_array_elements(c.body::jsonb) e
WHERE c.batch_id = $1 AND (e->>'index')::bigint >= $2 AND (e->>'index')::bigint < $3
UNION ALL SELECT idx, outcome->'order' FROM gw_batch_outcome WHERE batch_id = $1 AND idx >= $2 AND idx < $3`;

/** $1 batch, $2 chunk, $3 fence: the chunk's call is over and its orders are in doubt (the send counts). */
export const MARK_SENT = `UPDATE gw_batch_chunk SET sent = true WHERE batch_id = $1 AND chunk = $2 AND fence = $3 AND state = 'leased'`;

/**
 * $1 batch, $2 holder, $3 lease ms, $4 chunks, $5 their tokens, $6 the send window: extends the leases the holder
 * still has (same token) on the chunks it is working on, and their `quiet_at`; returns the chunks renewed.
 */
export const RENEW = `
UPDATE gw_batch_chunk c SET lease_until = clock_timestamp() + $3 * interval '1 millisecond',
  quiet_at = greatest(c.quiet_at, clock_timestamp() + ($3 + $6) * interval '1 millisecond')
FROM unnest($4::bigint[], $5::bigint[]) AS u(chunk, fence)
WHERE c.batch_id = $1 AND c.holder = $2 AND c.state = 'leased' AND c.chunk = u.chunk AND c.fence = u.fence
RETURNING c.chunk`;

/** $1 batch: whether intake is over, chunks not done, the outcomes by kind, the throttles met and the pace in force. */
export const STATUS = `
SELECT b.operation, b.chunk_limit, b.sealed, b.total, b.intake_next, b.throttled, b.max_in_flight IS NOT NULL AS in_flight_limited,
  CASE WHEN b.max_rate IS NULL THEN b.pace WHEN b.pace IS NULL THEN b.max_rate ELSE least(b.max_rate, b.pace) END AS pace,
  (SELECT count(*)::int FROM gw_batch_chunk WHERE batch_id = $1 AND state <> 'done') AS open,
  (SELECT coalesce(jsonb_object_agg(kind, n), '{}'::jsonb) FROM (SELECT kind, sum(n)::int AS n FROM (
    SELECT kind, count(*) AS n FROM gw_batch_outcome WHERE batch_id = $1 GROUP BY kind
    UNION ALL SELECT v.kind, v.n FROM (SELECT sum(succeeded) AS s, sum(failed) AS f, sum(rejected) AS r, sum(unknown) AS u FROM gw_batch_result WHERE batch_id = $1) t,
      LATERAL (VALUES ('succeeded', t.s), ('failed', t.f), ('rejected', t.r), ('unknown', t.u)) AS v(kind, n)) o WHERE n IS NOT NULL GROUP BY kind) k) AS counts
FROM gw_batch b WHERE b.id = $1`;

/**
 * One step of a worker, one round trip (its parameters: `StepParams`, put in their places by `stepValues`): commits the
 * chunks it finished (each only under its lease's token: outcomes, resends, the chunk done) and leases up to `want`
 * more (the first ready chunks, or ones whose lease expired; never one committed here), and tells whether the batch is
 * over: a row per chunk leased (or one with a null chunk), each with the summary. It notifies the batch's channel when
 * it wrote a resend (a new chunk) or committed a chunk once the batch is sealed and no chunk is left ready (its tail):
 * idle workers of other processes then look again at once, not at their next poll, and see the batch over after its
 * last commit. Not only the commit that finds the batch over: two steps committing the last two chunks at once each see
 * the other's chunk open (a statement reads the rows committed before it started), so neither would. The choice of
 * chunks is a MATERIALIZED CTE, evaluated once (as a subquery in UPDATE … FROM the planner may rescan it, and each
 * rescan under SKIP LOCKED picks other chunks); leased rows are updated by the ctid `next` locked (joined on the chunk
 * number, every row of the batch was scanned). A commit whose chunk is already done under the same token counts as
 * held: the same step, retried after its connection was lost once it had committed (a done chunk is never leased
 * again, so its token is still the committer's). Likewise a try that finds chunks leased by an earlier try of the same
 * step (its `token`) answers them again, as they were handed out, and leases no more: none stays leased to a holder
 * that does not know it holds it.
 *
 * Pacing, for every worker together: while the batch has a limit, a learnt pace or a pause, the step first locks its
 * `gw_batch` row (`gate`), so the steps of every worker take turns. With `max_in_flight` it leases only as many chunks as
 * permits are free (`leased_now` counts the chunks leased; a commit frees one, a fresh lease takes one, a lease taken
 * over from an expired one keeps its own), so no more chunks are out at once than the limit. With a rate (`max_rate`,
 * or the pace learnt from throttles, the lower) each chunk leased gets a slot, the batch's next send time then one
 * interval apart (`next_send_at`), never before a pause's end; `send_at_ms` is when the worker may send it (the
 * database's epoch ms, placed on the worker's clock by `db_now_ms`, the database's time of the answer: ledger-clock.ts),
 * and `rate_slot` says it is a slot of the rate (a worker too late for it hands the chunk back). The
 * learnt pace grows again from the pause's end. Without any of these no lock is taken. A pause on is returned
 * (`pause_ms`): a worker not woken by the pause channel learns of it here.
 */
export const STEP = `
WITH gate AS MATERIALIZED (
  SELECT max_in_flight, leased_now, next_send_at, paused_until,
    CASE WHEN max_rate IS NULL THEN pace WHEN pace IS NULL THEN max_rate ELSE least(max_rate, pace) END AS rate
  FROM gw_batch WHERE id = $1 AND (max_in_flight IS NOT NULL OR max_rate IS NOT NULL OR pace IS NOT NULL OR paused_until > clock_timestamp())
  FOR UPDATE
),
commits AS (
  SELECT chunk, fence, first_idx, succeeded, failed, rejected, unknown, outcomes, resend
  FROM unnest($5::bigint[], $6::bigint[], $7::bigint[], $8::int[], $9::int[], $10::int[], $11::int[], string_to_array($12::text, E'\n'), string_to_array($13::text, E'\n'))
    AS u(chunk, fence, first_idx, succeeded, failed, rejected, unknown, outcomes, resend)
),
held AS (
  UPDATE gw_batch_chunk k SET state = 'done', holder = NULL, lease_until = NULL
  FROM commits c
  WHERE k.batch_id = $1 AND k.chunk = ANY($5::bigint[]) AND k.chunk = c.chunk AND k.fence = c.fence AND k.state = 'leased'
    AND (SELECT count(*) FROM gate) >= 0 RETURNING k.chunk
),
committed_before AS (
  SELECT k.chunk FROM gw_batch_chunk k JOIN commits c ON k.chunk = c.chunk AND k.fence = c.fence
  WHERE k.batch_id = $1 AND k.chunk = ANY($5::bigint[]) AND k.state = 'done'
),
decided AS (
  INSERT INTO gw_batch_result (batch_id, chunk, first_idx, succeeded, failed, rejected, unknown, outcomes)
  SELECT $1, c.chunk, c.first_idx, c.succeeded, c.failed, c.rejected, c.unknown, c.outcomes FROM commits c JOIN held h ON h.chunk = c.chunk WHERE c.outcomes <> ''
  RETURNING succeeded + failed + rejected + unknown AS n
),
resent AS (
  INSERT INTO gw_batch_chunk (batch_id, chunk, body)
  SELECT $1, nextval('gw_batch_chunk_seq'), c.resend FROM commits c JOIN held h ON h.chunk = c.chunk WHERE c.resend <> ''
  RETURNING 1
),
again AS MATERIALIZED (
  SELECT chunk, body, skip, fence, sent, lease_taken_over AS taken_over, lease_quiet_before AS quiet_before, lease_send_at AS send_at, lease_rate_slot AS rate_slot
  FROM gw_batch_chunk WHERE batch_id = $1 AND state = 'leased' AND holder = $2 AND lease_step = $15
),
next AS MATERIALIZED (
  SELECT ctid AS row_id, chunk, state = 'ready' AS fresh, leased_before AS taken_over, quiet_at AS quiet_before FROM gw_batch_chunk
  WHERE $4::int > 0 AND NOT EXISTS (SELECT 1 FROM again) AND batch_id = $1 AND (state = 'ready' OR (state = 'leased' AND lease_until < clock_timestamp()))
    AND chunk NOT IN (SELECT chunk FROM commits)
  ORDER BY chunk
  LIMIT least($4::int, coalesce((SELECT greatest(0, g.max_in_flight - g.leased_now + (SELECT count(*)::int FROM held)) FROM gate g WHERE g.max_in_flight IS NOT NULL), $4::int))
  FOR UPDATE SKIP LOCKED
),
slots AS MATERIALIZED (
  SELECT n.row_id, CASE
      WHEN g.rate IS NOT NULL THEN greatest(coalesce(g.next_send_at, '-infinity'), coalesce(g.paused_until, '-infinity'), clock_timestamp())
        + (row_number() OVER (ORDER BY n.chunk) - 1) * ${SLOT_MS} * interval '1 millisecond'
      WHEN g.paused_until > clock_timestamp() THEN g.paused_until
    END AS send_at, g.rate IS NOT NULL AS rate_slot
  FROM next n LEFT JOIN gate g ON true
),
leased AS (
  UPDATE gw_batch_chunk k SET state = 'leased', holder = $2, fence = k.fence + 1, leased_before = true,
    lease_until = clock_timestamp() + $3 * interval '1 millisecond',
    quiet_at = greatest(k.quiet_at, clock_timestamp() + ($3 + $14) * interval '1 millisecond'),
    lease_step = $15, lease_taken_over = next.taken_over, lease_quiet_before = next.quiet_before, lease_send_at = slots.send_at, lease_rate_slot = slots.rate_slot
  FROM next JOIN slots ON slots.row_id = next.row_id WHERE k.ctid = next.row_id
  RETURNING k.chunk, k.body, k.skip, k.fence, k.sent, next.taken_over, next.quiet_before, slots.send_at, slots.rate_slot
),
handed AS (
  SELECT chunk, body, skip, fence, sent, taken_over,
    ${QUIET_WAIT}, (extract(epoch FROM send_at) * 1000)::float8 AS send_at_ms, coalesce(rate_slot, false) AS rate_slot
  FROM (SELECT * FROM leased UNION ALL SELECT * FROM again) l
),
paced AS (
  UPDATE gw_batch b SET
    leased_now = CASE WHEN g.max_in_flight IS NULL THEN b.leased_now ELSE b.leased_now + (SELECT count(*)::int FROM next WHERE fresh) - (SELECT count(*)::int FROM held) END,
    next_send_at = CASE WHEN g.rate IS NULL OR NOT EXISTS (SELECT 1 FROM slots) THEN b.next_send_at ELSE (SELECT max(send_at) FROM slots) + ${SLOT_MS} * interval '1 millisecond' END,
    pace = CASE WHEN b.pace IS NULL OR b.pace_at > clock_timestamp() THEN b.pace
      ELSE least(coalesce(b.max_rate, 'Infinity'), b.pace + greatest(0.2, b.pace * ${PACE_INCREASE}) * extract(epoch FROM (clock_timestamp() - b.pace_at))) END,
    pace_at = CASE WHEN b.pace IS NULL OR b.pace_at > clock_timestamp() THEN b.pace_at ELSE clock_timestamp() END
  FROM gate g WHERE b.id = $1
  RETURNING 1
),
summary AS (
  SELECT (SELECT coalesce(array_agg(chunk), '{}') FROM (SELECT chunk FROM held UNION ALL SELECT chunk FROM committed_before) h) AS held, (SELECT coalesce(sum(n), 0)::int FROM decided) AS decided,
    b.sealed AND NOT EXISTS (SELECT 1 FROM resent)
      AND NOT EXISTS (SELECT 1 FROM gw_batch_chunk WHERE batch_id = $1 AND state <> 'done' AND chunk NOT IN (SELECT chunk FROM held)) AS finished,
    b.sealed AND NOT EXISTS (SELECT 1 FROM gw_batch_chunk WHERE batch_id = $1 AND state = 'ready') AS tail
  FROM gw_batch b WHERE b.id = $1
)
SELECT s.held, s.decided, s.finished, l.chunk, l.body, l.skip, l.fence, l.sent, l.taken_over, l.quiet_wait_ms, l.send_at_ms, l.rate_slot,
  (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS db_now_ms,
  (SELECT ceil(extract(epoch FROM (g.paused_until - clock_timestamp())) * 1000)::int FROM gate g WHERE g.paused_until > clock_timestamp()) AS pause_ms,
  (SELECT pg_notify('${CHUNKS_CHANNEL}', $1) WHERE EXISTS (SELECT 1 FROM resent) OR (s.tail AND cardinality(s.held) > 0)) IS NULL AS woke
FROM summary s LEFT JOIN handed l ON true ORDER BY l.chunk`;

/** A commit as STEP takes it: the chunk and its lease's token, with what it writes (chunk-rows.ts, `commitColumns`). */
export interface StepCommit extends CommitColumns {
  readonly chunk: number;
  readonly fence: number;
}

/** STEP's parameters by name. */
export interface StepParams {
  readonly batch: string;
  readonly holder: string;
  /** How long each lease runs (ms). */
  readonly leaseMs: number;
  /** How many chunks to lease at most. */
  readonly want: number;
  readonly commits: readonly StepCommit[];
  /** The holder's send window (request timeout + send margin, ms): a lease's `quiet_at` is its end plus this. */
  readonly sendWindowMs: number;
  /** The step's token: the same on every try of the step. */
  readonly token: string;
}

/** An array of integers as PostgreSQL's array text (`{1,2,3}`): the driver would quote and escape each element. */
export function intArray(values: Iterable<number>): string {
  return `{${[...values].join(',')}}`;
}

/**
 * STEP's positional values from its named parameters, the one place that knows each `$n`. The commits go as one
 * array per column; their outcomes and resends each as a text of one line per commit (a JSON text, empty when none:
 * JSON text never holds a raw newline, and a text array's quoting would cost more).
 */
export function stepValues(p: StepParams): unknown[] {
  const column = (of: (c: StepCommit) => number): string => intArray(p.commits.map(of));
  const lines = (of: (c: StepCommit) => string | null): string => p.commits.map((c) => of(c) ?? '').join('\n');
  return [
    p.batch, // $1
    p.holder, // $2
    p.leaseMs, // $3
    p.want, // $4
    column((c) => c.chunk), // $5
    column((c) => c.fence), // $6
    column((c) => c.first), // $7
    column((c) => c.counts[0]), // $8 succeeded
    column((c) => c.counts[1]), // $9 failed
    column((c) => c.counts[2]), // $10 rejected
    column((c) => c.counts[3]), // $11 unknown
    lines((c) => c.outcomes), // $12
    lines((c) => c.resend), // $13
    p.sendWindowMs, // $14
    p.token, // $15
  ];
}

/**
 * $1 batch, $2 chunks, $3 fences, $4 taken over: hands back chunks leased and never sent (ready again, whether an
 * earlier holder had them as it was), only under the lease's token.
 */
export const RELEASE = `
WITH gate AS MATERIALIZED (SELECT 1 FROM gw_batch WHERE id = $1 AND max_in_flight IS NOT NULL FOR UPDATE),
released AS (
  UPDATE gw_batch_chunk c SET state = 'ready', holder = NULL, lease_until = NULL, leased_before = u.taken_over
  FROM unnest($2::bigint[], $3::bigint[], $4::boolean[]) AS u(chunk, fence, taken_over)
  WHERE c.batch_id = $1 AND c.chunk = u.chunk AND c.fence = u.fence AND c.state = 'leased' AND (SELECT count(*) FROM gate) >= 0
  RETURNING 1
)
UPDATE gw_batch SET leased_now = leased_now - (SELECT count(*)::int FROM released) WHERE id = $1 AND EXISTS (SELECT 1 FROM gate)`;

/**
 * $1 batch, $2 worker (holder), $3 the requests of that worker the gateway let through in the last second, $4 the wait
 * the gateway asked for (ms), null for a report alone. With a wait, the worker met a throttle: the whole batch pauses
 * that long (every worker: notified on the pause channel, its payload the batch id and the wait), the throttle is
 * counted, and a burst of throttles starts unless one is on. Every worker then reports what the gateway let through
 * of its requests in the last second (a throttled worker with each throttle, the others once, when the pause reaches
 * them; a report outside a burst changes nothing). The gateway's rate is the sum of the burst's reports, scaled up
 * while fewer workers have reported than hold leases; the pace is 95% of it, not above `max_rate`, growing again from
 * the pause's end (STEP).
 */
export const PACE_REPORT = `
WITH batch AS MATERIALIZED (
  SELECT coalesce(lowered_until, '-infinity') > clock_timestamp() AS in_burst,
    CASE WHEN coalesce(lowered_until, '-infinity') > clock_timestamp() THEN burst_at ELSE clock_timestamp() END AS burst_at
  FROM gw_batch WHERE id = $1 AND ($4::int IS NOT NULL OR coalesce(lowered_until, '-infinity') > clock_timestamp())
  FOR UPDATE
),
reported AS (
  INSERT INTO gw_batch_pace_report (batch_id, holder, let_through, at) SELECT $1, $2, $3, clock_timestamp() FROM batch
  ON CONFLICT (batch_id, holder) DO UPDATE SET let_through = EXCLUDED.let_through, at = EXCLUDED.at
  RETURNING 1
),
others AS (
  SELECT coalesce(sum(r.let_through), 0) AS let_through, count(*) AS workers FROM gw_batch_pace_report r, batch
  WHERE r.batch_id = $1 AND r.holder <> $2 AND r.at >= batch.burst_at
),
holding AS (SELECT count(DISTINCT holder) AS workers FROM gw_batch_chunk WHERE batch_id = $1 AND state = 'leased'),
estimate AS (
  SELECT greatest(1, ${PACE_DECREASE} * (o.let_through + $3) * greatest(o.workers + 1, h.workers) / (o.workers + 1)) AS pace
  FROM others o, holding h
),
lowered AS (
  UPDATE gw_batch b SET
    throttled = b.throttled + CASE WHEN $4::int IS NULL THEN 0 ELSE 1 END,
    paused_until = CASE WHEN $4::int IS NULL THEN b.paused_until ELSE greatest(coalesce(b.paused_until, '-infinity'), clock_timestamp() + $4::int * interval '1 millisecond') END,
    next_send_at = CASE WHEN $4::int IS NULL THEN b.next_send_at ELSE greatest(coalesce(b.next_send_at, '-infinity'), clock_timestamp() + $4::int * interval '1 millisecond') END,
    pace = least(coalesce(b.max_rate, 'Infinity'), (SELECT pace FROM estimate)),
    pace_at = CASE WHEN $4::int IS NULL THEN b.pace_at ELSE clock_timestamp() + $4::int * interval '1 millisecond' END,
    lowered_until = CASE WHEN $4::int IS NULL THEN b.lowered_until ELSE clock_timestamp() + $4::int * interval '1 millisecond' END,
    burst_at = batch.burst_at
  FROM batch WHERE b.id = $1 AND (SELECT count(*) FROM reported) >= 0
  RETURNING b.id
)
SELECT pg_notify('${PAUSE_CHANNEL}', id || ' ' || $4::int::text) FROM lowered WHERE $4::int IS NOT NULL`;

/**
 * $1 batch, $2 max_rate, $3 max_in_flight (null: none): the batch's limits, for every worker; the in-flight permits
 * start from the chunks leased now.
 */
export const SET_LIMITS = `
UPDATE gw_batch SET max_rate = $2, max_in_flight = $3,
  leased_now = (SELECT count(*)::int FROM gw_batch_chunk WHERE batch_id = $1 AND state = 'leased')
WHERE id = $1`;

/**
 * $1 batch, $2 holder, $3 lease (ms): takes or renews the batch's intake lease for `holder`, while no other holder's
 * lease is running; returns a row when this holder has it. No session state: any server connection may run it.
 */
export const INTAKE_LEASE = `
UPDATE gw_batch SET intake_holder = $2, intake_until = clock_timestamp() + $3 * interval '1 millisecond'
WHERE id = $1 AND (intake_holder IS NULL OR intake_holder = $2 OR intake_until < clock_timestamp())
RETURNING 1 AS held`;

/** $1 batch, $2 holder: hands the intake lease back, when this holder still has it. */
export const INTAKE_RELEASE = `UPDATE gw_batch SET intake_holder = NULL, intake_until = NULL WHERE id = $1 AND intake_holder = $2`;
