import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NotificationEvent } from '../envelope/event.ts';
import { NotificationRefusedError } from '../errors.ts';
import type { DecodeInput } from '../format/format.ts';
import { createMemoryDedupeStore } from '../dedupe/memory-store.ts';
import type { DedupeStore } from '../dedupe/store.ts';
import { answerFor, type ReceiverAnswer } from './answer.ts';
import { endDelivery, startDelivery, withinDelivery, type DeliveryRequest, type TracedDelivery } from './delivery-telemetry.ts';
import { HandledIds } from './handled-ids.ts';
import { readFetchBody } from './read-fetch-body.ts';
import { readNodeBody } from './read-node-body.ts';
import { isThenable } from './thenable.ts';
import { verifySettings, type VerifyOptions } from './verify-settings.ts';
import { verifyNotificationNow } from './verify.ts';

/** What the receiver needs: how to verify, what to run per event, and where handled ids are kept. */
export interface ReceiverOptions<Context = void> extends VerifyOptions {
  /** Your handler. The sender gets 2xx only after it resolved, non-2xx when it threw (so it retries). */
  readonly onEvent: (event: NotificationEvent, context: Context) => void | Promise<void>;
  /** Handled event ids. Default: `createMemoryDedupeStore()` (one process). */
  readonly store?: DedupeStore;
  /** How long a delivery may hold an event before another may take it over (a crashed process). Default 5 min. */
  readonly leaseMs?: number;
  /**
   * Called with each refusal, each handler failure, and each time the store could not record a handled event
   * (`NotificationNotRecordedError`, answered 2xx): for your logs; the error never holds the body.
   */
  readonly onError?: (error: unknown, answer: ReceiverAnswer) => void;
  /**
   * The route the receiver is mounted at (`/hooks/gw`), for telemetry: `http.route` and the span name `POST <route>`.
   * Default none: the span is named by the method alone (`POST`), as the HTTP conventions ask when the route is unknown.
   */
  readonly route?: string;
}

/** A receiver: one core `handle` and adapters for node:http and WHATWG `Request`. */
export interface NotificationReceiver<Context = void> {
  /** Verifies, de-duplicates, runs `onEvent` and says what to answer; for any framework that gives raw bytes. */
  handle(input: DecodeInput, context: Context): Promise<ReceiverAnswer>;
  /** A node:http handler `(req, res)` reading the raw body itself (do not put a JSON body parser before it). */
  node(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** A WHATWG handler: Next.js route handlers, Hono, Bun, Deno. */
  fetch(request: Request): Promise<Response>;
}

// UNKNOWNS U45: claim -> handler -> commit; 2xx only after the handler finished. A store or handler that answers
// synchronously (the memory store, a handler returning nothing) is not awaited: the order is the same, without a
// microtask hop per step. Once the handler finished the event is handled, even when the store cannot record it: 2xx,
// and the id is kept in memory (`HandledIds`) so a retry does not run it again; the store's failure goes to onError.
async function runOnce<Context>(
  event: NotificationEvent,
  context: Context,
  options: ReceiverOptions<Context>,
  store: DedupeStore,
  handled: HandledIds,
  leaseMs: number,
): Promise<ReceiverAnswer> {
  if (handled.unrecorded(event.id)) {
    const recorded = handled.record(event.id, 'later-delivery');
    return answerFor('duplicate', event, (isThenable(recorded) ? await recorded : recorded) ?? undefined);
  }
  const claimed = store.claim(event.id, leaseMs);
  const claim = isThenable(claimed) ? await claimed : claimed;
  if (claim === 'done') return answerFor('duplicate', event);
  if (claim === 'busy') return answerFor('in-progress', event);
  try {
    const ran = options.onEvent(event, context);
    if (isThenable(ran)) await ran;
  } catch (error) {
    const released = store.release(event.id);
    if (isThenable(released)) await released;
    return answerFor('failed', event, error);
  }
  const recorded = handled.record(event.id, 'after-handler');
  return answerFor('processed', event, (isThenable(recorded) ? await recorded : recorded) ?? undefined);
}

/** Runs a delivery inside its span and ends it with the answer (or the error that escaped). */
async function runTraced(delivery: TracedDelivery, overHttp: boolean, run: () => Promise<ReceiverAnswer>): Promise<ReceiverAnswer> {
  let answer: ReceiverAnswer;
  try {
    answer = await withinDelivery(delivery, run);
  } catch (error) {
    endDelivery(delivery, answerFor('failed', undefined, error), overHttp);
    throw error;
  }
  endDelivery(delivery, answer, overHttp);
  return answer;
}

/** The path of a request target, without its query (which may carry anything). */
function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** Builds a receiver; checks the options at once (`GW_CONFIG` listing every problem). */
export function createNotificationReceiver<Context = void>(options: ReceiverOptions<Context>): NotificationReceiver<Context> {
  const settings = verifySettings(options, typeof options?.onEvent === 'function' ? [] : ['onEvent must be a function (event) => void | Promise<void>']);
  const store = options.store ?? createMemoryDedupeStore();
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const handled = new HandledIds(store);
  const report = (answer: ReceiverAnswer): ReceiverAnswer => {
    if (answer.error === undefined || !options.onError) return answer;
    try {
      options.onError(answer.error, answer);
    } catch {
      // A logging hook that throws does not change the answer (a handled event stays answered 2xx).
    }
    return answer;
  };
  // One delivery from its raw bytes to its answer, untraced: `handle`, `node` and `fetch` trace around it.
  const deliver = async (input: DecodeInput, context: Context): Promise<ReceiverAnswer> => {
    let event: NotificationEvent;
    try {
      const verified = verifyNotificationNow(input, settings);
      event = isThenable(verified) ? await verified : verified;
    } catch (error) {
      if (error instanceof NotificationRefusedError) return report(answerFor('refused', undefined, error));
      throw error;
    }
    return report(await runOnce(event, context, options, store, handled, leaseMs));
  };
  // Over HTTP: the body is read, then delivered; a failure of either is answered (refused, or failed).
  const deliverHttp = async (read: () => Promise<DecodeInput>): Promise<ReceiverAnswer> => {
    try {
      return await deliver(await read(), undefined as Context);
    } catch (error) {
      return report(error instanceof NotificationRefusedError ? answerFor('refused', undefined, error) : answerFor('failed', undefined, error));
    }
  };
  // With an SDK registered, a delivery runs inside its SERVER span; without one, this is the one check it makes.
  const traced = (request: (() => DeliveryRequest) | null, run: () => Promise<ReceiverAnswer>): Promise<ReceiverAnswer> => {
    const delivery = startDelivery(request, options.route);
    return delivery === null ? run() : runTraced(delivery, request !== null, run);
  };
  const receiver: NotificationReceiver<Context> = {
    handle: (input, context) => traced(null, () => deliver(input, context)),
    async node(req, res) {
      const request = () => ({ method: req.method ?? 'POST', path: pathOf(req.url), host: req.headers.host, headers: req.headers });
      const answer = await traced(request, () => deliverHttp(async () => ({ body: await readNodeBody(req, settings.maxBodyBytes), headers: req.headers })));
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    },
    async fetch(request) {
      const facts = () => {
        const url = new URL(request.url);
        return { method: request.method, path: url.pathname, host: url.host, headers: request.headers };
      };
      const answer = await traced(facts, () =>
        deliverHttp(async () => ({ body: await readFetchBody(request, settings.maxBodyBytes), headers: request.headers })),
      );
      return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
    },
  };
  return receiver;
}
