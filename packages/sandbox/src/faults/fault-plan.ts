import { SeededRandom } from '../state/random.ts';

/** What can go wrong on a route, for tests: how the toolkit copes with a gateway that misbehaves. */
export type FaultKind = 'reset-before' | 'reset-after' | 'http-5xx' | 'duplicate-notification';

/** The fault of a gateway that throttles: HTTP 429 with `Retry-After` at once, nothing processed (UNKNOWNS U50). */
export type ThrottleFaultKind = 'http-429';

/** Every kind of fault that can be injected one-shot. */
export type InjectableFaultKind = FaultKind | ThrottleFaultKind;

/** Probabilities (0..1) and latency for one route, or for every route under the key `*`. */
export interface FaultRule {
  /** Added latency in milliseconds before the request is processed: a number or a [min, max] range. */
  readonly latencyMs?: number | readonly [number, number];
  /** The connection is reset before the request is processed: nothing happens. */
  readonly resetBefore?: number;
  /** The request is processed, then the connection is reset: it happened, the caller gets no answer. */
  readonly resetAfter?: number;
  /** HTTP 503 without processing. */
  readonly http5xx?: number;
  /** HTTP 429 with `Retry-After` at once, before the latency, without processing: a gateway that throttles. */
  readonly http429?: number;
  /** The `Retry-After` of the `http429` fault (random or injected on this path), whole seconds from 0 to 86400. Default 1. */
  readonly retryAfterSeconds?: number;
  /** A notification is delivered twice. */
  readonly duplicateNotification?: number;
}

/** Fault rules by path (`/v1/capture`) or `*` for every path. */
export type FaultRules = Readonly<Record<string, FaultRule>>;

/** The faults chosen for one request. */
export interface FaultDecision {
  readonly latencyMs: number;
  readonly kind: Exclude<InjectableFaultKind, 'duplicate-notification'> | null;
  readonly duplicateNotification: boolean;
  /** The Retry-After of an `http-429` fault. */
  readonly retryAfterSeconds: number;
}

/** A 32-bit FNV-1a hash of a path, to give each route its own stream of draws. */
function pathHash(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Decides the faults of each request from the rules and a queue of one-shot faults, reproducibly from the seed: each
 * path draws from its own seeded stream, so the n-th request to a route meets the same fault whatever other routes (or
 * generated references) drew in between.
 */
export class FaultPlan {
  #rules: FaultRules;
  readonly #queued = new Map<string, InjectableFaultKind[]>();
  readonly #seed: number;
  readonly #streams = new Map<string, SeededRandom>();

  constructor(rules: FaultRules, seed: number) {
    this.#rules = rules;
    this.#seed = seed >>> 0;
  }

  #random(path: string): SeededRandom {
    let stream = this.#streams.get(path);
    if (!stream) this.#streams.set(path, (stream = new SeededRandom(this.#seed ^ pathHash(path))));
    return stream;
  }

  /** The random fault rules in force. */
  get rules(): FaultRules {
    return this.#rules;
  }

  /** The one-shot faults still queued, by path. */
  queued(): Record<string, InjectableFaultKind[]> {
    return Object.fromEntries([...this.#queued].filter(([, kinds]) => kinds.length > 0).map(([path, kinds]) => [path, [...kinds]]));
  }

  /** Drops every queued one-shot fault. */
  clearQueued(): void {
    this.#queued.clear();
  }

  /** Replaces the rules (an empty object turns random faults off). */
  setRules(rules: FaultRules): void {
    this.#rules = rules;
  }

  /** Makes the next `times` requests to `path` suffer `kind`, before any random rule. */
  inject(path: string, kind: InjectableFaultKind, times = 1): void {
    const queue = this.#queued.get(path) ?? [];
    for (let i = 0; i < times; i++) queue.push(kind);
    this.#queued.set(path, queue);
  }

  /** The faults of the next request to `path`. */
  decide(path: string): FaultDecision {
    const rule = this.#rules[path] ?? this.#rules['*'] ?? {};
    const random = this.#random(path);
    const latency = rule.latencyMs;
    const latencyMs = latency === undefined ? 0 : typeof latency === 'number' ? latency : latency[0] + random.next() * (latency[1] - latency[0]);
    const queued = this.#queued.get(path)?.shift();
    if (queued) {
      return {
        latencyMs,
        kind: queued === 'duplicate-notification' ? null : queued,
        duplicateNotification: queued === 'duplicate-notification',
        retryAfterSeconds: rule.retryAfterSeconds ?? 1,
      };
    }
    const draw = random.next();
    let kind: FaultDecision['kind'] = null;
    let edge = rule.resetBefore ?? 0;
    if (draw < edge) kind = 'reset-before';
    else if (draw < (edge += rule.http5xx ?? 0)) kind = 'http-5xx';
    else if (draw < (edge += rule.http429 ?? 0)) kind = 'http-429';
    else if (draw < (edge += rule.resetAfter ?? 0)) kind = 'reset-after';
    const duplicateNotification = (rule.duplicateNotification ?? 0) > 0 && random.next() < (rule.duplicateNotification ?? 0);
    return { latencyMs, kind, duplicateNotification, retryAfterSeconds: rule.retryAfterSeconds ?? 1 };
  }
}
