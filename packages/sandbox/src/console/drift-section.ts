// The answer-drift rules in force, on the Faults page: answers that differ from the spec on purpose (`PUT /sandbox/api/drift`).
import type { AnswerDriftRule, AnswerDriftRules } from '../drift/answer-drift.ts';
import { html, type SafeHtml } from './html.ts';
import { listTable, type ListColumn } from './list-table.ts';

const DRIFT_COLUMNS: readonly ListColumn[] = [{ label: 'Operation', cell: 'mono' }, { label: 'Its answers' }];

/** What one drift rule does to an operation's answers, a line per change. */
export function driftChanges(rule: AnswerDriftRule): SafeHtml {
  const lines: SafeHtml[] = [];
  for (const [path, value] of Object.entries(rule.add ?? {})) lines.push(html`add <code>${path}</code> = <code>${JSON.stringify(value)}</code>`);
  for (const path of rule.drop ?? []) lines.push(html`leave out <code>${path}</code>`);
  for (const path of rule.retype ?? []) lines.push(html`change the type of <code>${path}</code>`);
  if (rule.wrongSignature) lines.push(html`carry a signature that does not verify`);
  if (lines.length === 0) return html`<span class="muted">no change</span>`;
  return html`<ul>
    ${lines.map((line) => html`<li>${line}</li>`)}
  </ul>`;
}

/** The drift section: a row per operation (or `*`, every operation) and a button that switches drift off. */
export function driftSection(rules: AnswerDriftRules): SafeHtml {
  const rows = Object.entries(rules).map(([operation, rule]) => [operation === '*' ? '* (every operation)' : operation, driftChanges(rule)]);
  const intro = html`<p class="muted">
    Answers that differ from the spec on purpose, to test a checking proxy (<code>gw proxy</code>). Set with <code>PUT /sandbox/api/drift</code> or the
    <code>answerDrift</code> option.
  </p>`;
  if (rows.length === 0)
    return html`<h2>Answer drift in force</h2>
      ${intro}
      <p class="muted">None: every answer follows the spec.</p>`;
  return html`<h2>Answer drift in force</h2>
    ${intro}${listTable('Answer drift in force', DRIFT_COLUMNS, rows, '')}
    <form class="card" method="post" action="/sandbox/console/drift/off"><button type="submit" class="secondary">Switch drift off</button></form>`;
}
