// The control API's routes under /sandbox/api/ (README "Control API"): JSON in, JSON out.
import type { IncomingMessage } from 'node:http';
import type { AnswerDriftRule } from '../drift/answer-drift.ts';
import type { FaultRule } from '../faults/fault-plan.ts';
import { advanceSeconds, clockJson } from './clock-work.ts';
import type { ControlDeps } from './control-deps.ts';
import { invalid } from './control-error.ts';
import { asDriftRules, driftRulesProblems } from '../drift/drift-rules.ts';
import { asFaultRules, faultRulesProblems, injectedFault } from '../faults/fault-rules.ts';
import { readJsonObject } from './http.ts';
import { notificationsJson, findNotification, resendNotification } from './notifications.ts';
import { throttleJson, throttleSettingIn } from './throttle-setting.ts';
import { actOnOrder, orderJson, ordersJson, refundsJson } from './orders.ts';
import { notificationView, orderDetail, payoutView, subscriptionView } from './views.ts';

/** One request as a route sees it. */
export interface ApiRequest {
  readonly req: IncomingMessage;
  readonly params: readonly string[];
  readonly query: URLSearchParams;
  body(): Promise<Record<string, unknown>>;
}

/** A route: method, path pattern (captures are decoded params), and what it answers (status 200 unless given). */
export interface ApiRoute {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly pattern: RegExp;
  run(deps: ControlDeps, request: ApiRequest): unknown;
}

function faultsJson(deps: ControlDeps) {
  return { rules: deps.faults.rules, queued: deps.faults.queued() };
}

/** The rules a PUT of faults or drift carries: the body itself, or its `rules` when that is all it holds. */
function rulesIn(body: Record<string, unknown>): unknown {
  return 'rules' in body && Object.keys(body).length === 1 ? body.rules : body;
}

/** Every route of the control API. */
export const API_ROUTES: readonly ApiRoute[] = [
  { method: 'GET', pattern: /^orders$/, run: (deps, r) => ordersJson(deps, r.query) },
  { method: 'GET', pattern: /^orders\/([^/]+)$/, run: (deps, r) => orderJson(deps, r.params[0]!) },
  {
    method: 'POST',
    pattern: /^orders\/([^/]+)\/actions\/([^/]+)$/,
    run: (deps, r) => ({ order: orderDetail(deps.state, actOnOrder(deps, r.params[0]!, r.params[1]!)) }),
  },
  { method: 'GET', pattern: /^refunds$/, run: (deps) => refundsJson(deps) },
  { method: 'GET', pattern: /^subscriptions$/, run: (deps) => ({ subscriptions: [...deps.state.subscriptions.values()].reverse().map(subscriptionView) }) },
  { method: 'GET', pattern: /^payouts$/, run: (deps) => ({ payouts: [...deps.state.payouts].reverse().map(([key, p]) => payoutView(key, p)) }) },
  { method: 'GET', pattern: /^notifications$/, run: (deps, r) => notificationsJson(deps, r.query) },
  { method: 'GET', pattern: /^notifications\/([^/]+)$/, run: (deps, r) => ({ notification: notificationView(findNotification(deps, r.params[0]!), true) }) },
  {
    method: 'POST',
    pattern: /^notifications\/([^/]+)\/resend$/,
    run: (deps, r) => ({ notification: notificationView(resendNotification(deps, r.params[0]!), true), resent: true }),
  },
  { method: 'GET', pattern: /^faults$/, run: (deps) => faultsJson(deps) },
  {
    method: 'PUT',
    pattern: /^faults$/,
    run: async (deps, r) => {
      const rules = rulesIn(await r.body());
      const problems = faultRulesProblems(rules);
      if (problems.length > 0) throw invalid('bad fault rules', problems);
      deps.faults.setRules(asFaultRules(rules as Record<string, FaultRule>));
      return faultsJson(deps);
    },
  },
  {
    method: 'POST',
    pattern: /^faults\/inject$/,
    run: async (deps, r) => {
      const { fault, problems } = injectedFault(await r.body());
      if (!fault) throw invalid('bad one-shot fault', problems);
      deps.faults.inject(fault.path, fault.kind, fault.times);
      return faultsJson(deps);
    },
  },
  { method: 'GET', pattern: /^throttle$/, run: (deps) => throttleJson(deps) },
  {
    method: 'PUT',
    pattern: /^throttle$/,
    run: async (deps, r) => {
      deps.throttle.set(throttleSettingIn(await r.body()));
      return throttleJson(deps);
    },
  },
  { method: 'GET', pattern: /^throttle\/stats$/, run: (deps) => ({ stats: deps.throttle.stats() }) },
  {
    method: 'POST',
    pattern: /^throttle\/stats\/reset$/,
    run: (deps) => {
      deps.throttle.resetCounts();
      return { stats: deps.throttle.stats() };
    },
  },
  { method: 'GET', pattern: /^drift$/, run: (deps) => ({ rules: deps.drift.rules }) },
  {
    method: 'PUT',
    pattern: /^drift$/,
    run: async (deps, r) => {
      const rules = rulesIn(await r.body());
      const problems = driftRulesProblems(rules);
      if (problems.length > 0) throw invalid('bad drift rules', problems);
      deps.drift.set(asDriftRules(rules as Record<string, AnswerDriftRule>));
      return { rules: deps.drift.rules };
    },
  },
  {
    method: 'POST',
    pattern: /^reset$/,
    run: (deps) => {
      deps.reset();
      return { reset: true, orders: deps.state.orders.size, notifications: deps.state.notifications.length };
    },
  },
  { method: 'GET', pattern: /^clock$/, run: (deps) => clockJson(deps) },
  { method: 'POST', pattern: /^clock\/advance$/, run: async (deps, r) => deps.advanceClock(advanceSeconds(await r.body()) * 1000) },
];

/** The route for a method and a path below /sandbox/api/, or why there is none. */
export function matchRoute(method: string, subPath: string): { route: ApiRoute; params: string[] } | { allowed: string[] } {
  const allowed: string[] = [];
  for (const route of API_ROUTES) {
    const match = route.pattern.exec(subPath);
    if (!match) continue;
    if (route.method === method) return { route, params: match.slice(1).map((p) => decodeURIComponent(p)) };
    allowed.push(route.method);
  }
  return { allowed };
}

/** The body reader of a request. */
export function bodyReader(req: IncomingMessage, deps: ControlDeps): () => Promise<Record<string, unknown>> {
  return () => readJsonObject(req, { limit: deps.maxBodyBytes, idleMs: deps.bodyTimeoutMs });
}
