// What the console's forms do: each a control API operation, then a notice for the page the browser returns to.
import type { ControlDeps } from '../control/control-deps.ts';
import { invalid } from '../control/control-error.ts';
import { faultRulesProblems, injectedFault } from '../faults/fault-rules.ts';
import { resendNotification } from '../control/notifications.ts';
import { actOnOrder } from '../control/orders.ts';
import type { FaultRule, InjectableFaultKind } from '../faults/fault-plan.ts';

/** Where the browser goes after a form, and what it is told. */
export interface FormResult {
  readonly back: string;
  readonly notice: string;
}

const RULE_MEMBER: Record<InjectableFaultKind, keyof FaultRule> = {
  'http-5xx': 'http5xx',
  'http-429': 'http429',
  'reset-before': 'resetBefore',
  'reset-after': 'resetAfter',
  'duplicate-notification': 'duplicateNotification',
};

/** A console path to return to (never another site). */
function localBack(value: string | null, fallback: string): string {
  return value && /^\/sandbox\/console(?:[/?][^\\]*)?$/.test(value) && !value.startsWith('//') ? value : fallback;
}

function switchFault(deps: ControlDeps, form: URLSearchParams): string {
  const path = form.get('path') ?? '';
  const kind = (form.get('kind') ?? '') as InjectableFaultKind;
  const latencyText = form.get('latency') ?? '';
  if (form.get('mode') === 'next') {
    const { fault, problems } = injectedFault({ path, kind, times: Number(form.get('times') || '1') });
    if (!fault) throw invalid('cannot queue this fault', problems);
    deps.faults.inject(fault.path, fault.kind, fault.times);
    return `${fault.path}: the next ${fault.times} request(s) meet ${fault.kind}`;
  }
  const old = deps.faults.rules[path] ?? {};
  const rule: Record<string, unknown> =
    kind === 'duplicate-notification'
      ? { ...old }
      : { latencyMs: old.latencyMs, duplicateNotification: old.duplicateNotification, retryAfterSeconds: old.retryAfterSeconds };
  if (RULE_MEMBER[kind]) rule[RULE_MEMBER[kind]] = 1;
  if (latencyText !== '') rule.latencyMs = Number(latencyText);
  for (const key of Object.keys(rule)) if (rule[key] === undefined) delete rule[key];
  const rules = { ...deps.faults.rules, [path]: rule };
  const problems = faultRulesProblems(rules);
  if (!RULE_MEMBER[kind]) problems.push({ path: '/kind', message: 'is not a fault kind' });
  if (problems.length > 0) throw invalid('cannot switch this fault on', problems);
  deps.faults.setRules(rules as Record<string, FaultRule>);
  return `${path}: every request meets ${kind}${rule.latencyMs ? ` after ${String(rule.latencyMs)} ms` : ''} until switched off`;
}

/** Runs the form posted to `subPath` (below /sandbox/console/). */
export function runConsoleForm(deps: ControlDeps, subPath: string, form: URLSearchParams): FormResult | null {
  let m: RegExpExecArray | null;
  if ((m = /^orders\/([^/]+)\/actions\/([^/]+)$/.exec(subPath))) {
    const order = actOnOrder(deps, decodeURIComponent(m[1]!), decodeURIComponent(m[2]!));
    return { back: `/sandbox/console/orders/${encodeURIComponent(order.transactionId)}`, notice: `${order.transactionId} is now ${order.state}` };
  }
  if ((m = /^notifications\/([^/]+)\/resend$/.exec(subPath))) {
    const delivery = resendNotification(deps, decodeURIComponent(m[1]!));
    return {
      back: localBack(form.get('back'), '/sandbox/console/notifications'),
      notice: `event ${delivery.eventId} is being delivered again to ${delivery.url} as notification ${delivery.id}${delivery.resendOf === null ? '' : ` (resend of #${delivery.resendOf})`}`,
    };
  }
  if (subPath === 'faults/switch') return { back: '/sandbox/console/faults', notice: switchFault(deps, form) };
  if (subPath === 'faults/off') {
    deps.faults.setRules({});
    deps.faults.clearQueued();
    return { back: '/sandbox/console/faults', notice: 'every fault is off' };
  }
  if (subPath === 'drift/off') {
    deps.drift.set({});
    return { back: '/sandbox/console/faults', notice: 'answer drift is off: every answer follows the spec' };
  }
  if (subPath === 'clock/advance') {
    const seconds = Number(form.get('seconds'));
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > 10 * 366 * 86_400)
      throw invalid('cannot advance the clock', [{ path: 'seconds', message: 'must be a number of seconds from 0 to ten years' }]);
    const work = deps.advanceClock(seconds * 1000);
    return {
      back: '/sandbox/console/clock',
      notice: `clock now ${work.now}: ${work.expiredPayments} payment(s) expired, ${work.subscriptionCharges} subscription charge(s)`,
    };
  }
  if (subPath === 'reset') {
    if (form.get('confirm') !== 'yes') throw invalid('not reset', [{ path: 'confirm', message: 'tick "Delete everything" to reset' }]);
    deps.reset();
    return { back: '/sandbox/console/clock', notice: 'the sandbox was reset: no orders, subscriptions, payouts or notifications' };
  }
  return null;
}
