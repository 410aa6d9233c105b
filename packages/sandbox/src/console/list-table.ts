// Every list of the console is one of these: a table on a wide screen, a stacked card per row (each cell labelled) on a narrow one.
import { html, type SafeHtml } from './html.ts';

/** A column of a list: its heading (also each cell's label on a narrow screen) and the class of its cells. */
export interface ListColumn {
  readonly label: string;
  /** Classes of its cells: `num` (right-aligned figures), `mono` (ids, paths, times), `wrap` (may wrap in a wide table). */
  readonly cell?: string;
}

/**
 * A list as a table with ARIA roles (kept when the narrow layout makes rows blocks); `rows` holds one value per column
 * for each row, escaped unless already SafeHtml; `empty` is shown in a row of its own when there is none.
 */
export function listTable(name: string, columns: readonly ListColumn[], rows: readonly (readonly unknown[])[], empty: string): SafeHtml {
  const head = columns.map((c) => html`<th role="columnheader" scope="col">${c.label}</th>`);
  const body = rows.map(
    (row) =>
      html`<tr role="row">
        ${columns.map((c, i) => html`<td role="cell" data-label="${c.label}" ${c.cell ? html` class="${c.cell}"` : ''}><div class="value">${row[i]}</div></td>`)}
      </tr>`,
  );
  const none = html`<tr role="row" class="empty">
    <td role="cell" colspan="${columns.length}">${empty}</td>
  </tr>`;
  return html`<div class="scroll">
    <table class="list" role="table" aria-label="${name}">
      <thead role="rowgroup">
        <tr role="row">
          ${head}
        </tr>
      </thead>
      <tbody role="rowgroup">
        ${rows.length > 0 ? body : none}
      </tbody>
    </table>
  </div>`;
}
