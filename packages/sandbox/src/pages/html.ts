// Shared HTML of the shopper pages: escaping and one plain, phone-readable layout (every page works without JavaScript).

/** `value` with every character HTML gives a meaning escaped: safe in text and in a quoted attribute. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2530;background:#eef1f5}
main{max-width:30rem;margin:0 auto;padding:1rem}
header{display:flex;justify-content:space-between;align-items:baseline;margin:.5rem 0 1rem}
header b{font-size:1.05rem}
.badge{font-size:.75rem;font-weight:600;letter-spacing:.04em;text-transform:uppercase;color:#7a4b00;background:#ffe8b3;border-radius:.3rem;padding:.1rem .45rem}
section{background:#fff;border-radius:.6rem;padding:1rem 1.1rem;margin-bottom:1rem;box-shadow:0 1px 2px rgba(0,0,0,.08)}
h1{font-size:1.3rem;margin:0 0 .75rem}
h2{font-size:1rem;margin:0 0 .5rem}
dl+h2{margin-top:1rem}
ul{margin:.25rem 0 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}
dt{color:#5b6675}dd{margin:0;text-align:right;overflow-wrap:anywhere}
.total{font-size:1.6rem;font-weight:700;margin:0 0 .75rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #aab3bf;border-radius:.4rem}
input[aria-invalid="true"]{border-color:#b3261e}
input:focus{outline:2px solid #2457c5;border-color:#2457c5}
.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.actions{display:flex;flex-wrap:wrap;gap:.6rem;margin-top:1.1rem}
.actions.grid{display:grid;grid-template-columns:1fr 1fr}
button,a.button{flex:1 1 10rem;text-align:center;text-decoration:none;display:inline-block;font:inherit;font-weight:600;padding:.7rem 1rem;border-radius:.4rem;border:1px solid #2457c5;cursor:pointer;background:#2457c5;color:#fff}
button.secondary{background:#fff;color:#2457c5}
button.danger{background:#fff;color:#b3261e;border-color:#b3261e}
.errors{border-left:4px solid #b3261e;background:#fdecea;padding:.6rem .9rem;border-radius:.3rem;margin-bottom:.75rem}
.errors ul{margin:.25rem 0 0;padding-left:1.1rem}
.note{color:#5b6675;font-size:.9rem}
table{width:100%;border-collapse:collapse;font-size:.85rem}
th,td{text-align:left;padding:.35rem .3rem;border-bottom:1px solid #e3e7ec;vertical-align:top}
td code{white-space:nowrap}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em}
`;

/** A whole page: viewport meta, the sandbox banner, `body` (already escaped HTML) inside <main>. */
export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · gw sandbox</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header><b>gw sandbox</b><span class="badge">Test mode · no real money</span></header>
${body}
</main>
</body>
</html>
`;
}

/** A definition list of label/value pairs (values escaped). */
export function summaryList(rows: readonly (readonly [string, string])[]): string {
  return `<dl>${rows.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

/** The list of problems shown above a form (texts escaped), or '' when none. */
export function problemList(problems: readonly string[]): string {
  if (problems.length === 0) return '';
  return `<div class="errors" role="alert"><b>Please check the form</b><ul>${problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul></div>`;
}
