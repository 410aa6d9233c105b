import type { ControlDeps } from '../control/control-deps.ts';
import { operationsByPath } from '@gw/types';
import { INJECTABLE_FAULT_KINDS } from '../faults/fault-rules.ts';
import { html, type SafeHtml } from './html.ts';
import { page } from './layout.ts';
import { listTable, type ListColumn } from './list-table.ts';
import { driftSection } from './drift-section.ts';

/** What each fault does, for the labels. */
export const FAULT_LABELS: Record<string, string> = {
  'http-5xx': 'HTTP 503, nothing processed',
  'http-429': 'HTTP 429 with Retry-After at once, nothing processed',
  'reset-before': 'connection reset before processing (nothing happened)',
  'reset-after': 'processed, then connection reset (outcome unknown to the caller)',
  'duplicate-notification': 'notification delivered twice',
};

const RULE_COLUMNS: readonly ListColumn[] = [
  { label: 'Path', cell: 'mono' },
  { label: 'Rule', cell: 'mono' },
];
const QUEUED_COLUMNS: readonly ListColumn[] = [{ label: 'Path', cell: 'mono' }, { label: 'Next requests meet' }];

/** One line on what is in force, so drift and faults show without scrolling. */
function inForce(deps: ControlDeps): SafeHtml {
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const queued = Object.values(deps.faults.queued()).reduce((sum, kinds) => sum + kinds.length, 0);
  const parts = [
    count(Object.keys(deps.faults.rules).length, 'fault rule'),
    count(queued, 'queued fault'),
    count(Object.keys(deps.drift.rules).length, 'answer drift rule'),
  ];
  return html`<p class="muted" role="note">In force: ${parts.join(', ')}.</p>`;
}

/** Fault switches: rules in force, queued one-shot faults, answer drift in force, and forms to switch faults on and off. */
export function faultsPage(deps: ControlDeps, notice: string | null): string {
  const paths = ['*', ...operationsByPath.keys()];
  const pathOptions = paths.map((p) => html`<option value="${p}">${p === '*' ? '* (every operation)' : p}</option>`);
  const kindOptions = INJECTABLE_FAULT_KINDS.map((k) => html`<option value="${k}">${k}: ${FAULT_LABELS[k]}</option>`);
  const rules = Object.entries(deps.faults.rules).map(([path, rule]) => [
    path,
    Object.entries(rule)
      .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
      .join(', '),
  ]);
  const queued = Object.entries(deps.faults.queued()).map(([path, kinds]) => [path, kinds.join(', ')]);
  const content = html`<h1>Faults</h1>
    ${inForce(deps)}
    <h2>Switch a fault on</h2>
    <form class="card" method="post" action="/sandbox/console/faults/switch">
      <label
        >Operation<select name="path">
          ${pathOptions}
        </select></label
      >
      <label
        >Fault kind<select name="kind">
          ${kindOptions}
        </select></label
      >
      <label
        >Applies to<select name="mode">
          <option value="next">the next request(s) only</option>
          <option value="always">every request until switched off</option>
        </select></label
      >
      <label>How many (next only)<input name="times" type="number" min="1" max="10000" value="1" inputmode="numeric" /></label>
      <label>Added latency, ms (every request)<input name="latency" type="number" min="0" max="600000" value="" inputmode="numeric" /></label>
      <button type="submit">Switch on</button>
    </form>
    <h2>Fault rules in force (every request)</h2>
    ${rules.length > 0 ? listTable('Fault rules in force', RULE_COLUMNS, rules, '') : html`<p class="muted">None.</p>`}
    <h2>Queued one-shot faults</h2>
    ${queued.length > 0 ? listTable('Queued one-shot faults', QUEUED_COLUMNS, queued, '') : html`<p class="muted">None.</p>`}
    <form class="card" method="post" action="/sandbox/console/faults/off"><button type="submit" class="secondary">Switch every fault off</button></form>
    ${driftSection(deps.drift.rules)}`;
  return page('Faults', 'faults', content, notice);
}
