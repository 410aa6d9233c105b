import { html, SafeHtml } from './html.ts';

const STYLE = `
body{font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#1d3557;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:baseline}
header strong{font-size:1.05rem;margin-right:.6rem}
header nav{display:flex;flex-wrap:wrap;gap:.3rem 1.1rem}
td ol{margin:0;padding-left:1.3rem}
header a{color:#fff;text-decoration:none;padding:.15rem .1rem;border-bottom:2px solid transparent}
header a[aria-current=page]{border-bottom-color:#f4a261}
main{padding:1rem;max-width:80rem;margin:0 auto}
h1{font-size:1.35rem;margin:.2rem 0 .8rem}h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
/* A table wider than the screen scrolls sideways; shadows at its edges show there is more to either side. */
.scroll{overflow-x:auto;border:1px solid #d9dde3;border-radius:6px;background-color:#fff;
background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)) left/2.5rem 100% no-repeat local,linear-gradient(to left,#fff 30%,rgba(255,255,255,0)) right/2.5rem 100% no-repeat local,radial-gradient(farthest-side at 0 50%,rgba(27,31,36,.22),transparent) left/.9rem 100% no-repeat scroll,radial-gradient(farthest-side at 100% 50%,rgba(27,31,36,.22),transparent) right/.9rem 100% no-repeat scroll,#fff}
table{border-collapse:collapse;width:100%;font-size:.93rem}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #eceef1;vertical-align:top}
th{background:#eef1f5;font-weight:600;white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88rem;overflow-wrap:break-word}
td .mono,td.mono,td code,td a,.state{white-space:nowrap;overflow-wrap:normal}
td.wrap{white-space:normal}
.state{display:inline-block;padding:.05rem .45rem;border-radius:999px;font-size:.82rem;background:#e6e9ee}
.state-authorised,.state-captured,.ok{background:#d8f3dc}.state-pending{background:#fff3bf}
.state-declined,.state-expired,.bad{background:#ffd6d6}.state-cancelled,.state-refunded,.state-partially_refunded{background:#e7e0f6}
form.inline{display:inline}
form.card{background:#fff;border:1px solid #d9dde3;border-radius:6px;padding:.8rem;margin:.6rem 0;display:flex;flex-wrap:wrap;gap:.6rem;align-items:end}
label{display:flex;flex-direction:column;font-size:.85rem;gap:.2rem}
label.check{flex-direction:row;align-items:center;gap:.4rem}
input,select,button{font:inherit;padding:.4rem .55rem;border:1px solid #b8c0cc;border-radius:5px;background:#fff;max-width:100%}
form.card label{min-width:0;max-width:100%}
button{background:#1d3557;color:#fff;border-color:#1d3557;cursor:pointer;min-height:2.4rem}
button.secondary{background:#fff;color:#1d3557}button.danger{background:#b42318;border-color:#b42318}
.notice{background:#e8f4fd;border:1px solid #9cc9ee;padding:.6rem .8rem;border-radius:6px;margin-bottom:1rem}
.muted{color:#5b6472;font-size:.9rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;background:#fff;border:1px solid #d9dde3;border-radius:6px;padding:.8rem;margin:0}
dt{font-weight:600}dd{margin:0;word-break:break-word}
@media (max-width:40rem){dl{grid-template-columns:6.6rem minmax(0,1fr);gap:.3rem .7rem}dd,dd *{overflow-wrap:anywhere}main{padding:.6rem}}
td ul{margin:0;padding-left:1.1rem}td ol li{white-space:nowrap}
/* On a narrow screen every list is a card per row, each cell labelled with its column: nothing to scroll sideways. */
@media (max-width:48rem){
table.list,table.list tbody,table.list tr{display:block}
table.list thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
table.list tr{padding:.45rem 0;border-bottom:1px solid #d9dde3}
table.list tr:last-child{border-bottom:0}
table.list td{display:grid;grid-template-columns:6.6rem minmax(0,1fr);gap:.7rem;padding:.18rem .7rem;border:0;text-align:left}
table.list td::before{content:attr(data-label);font:600 .8rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#5b6472}
table.list tr.empty td{display:block}table.list tr.empty td::before{content:none}
table.list td .value,table.list td .value *{white-space:normal;overflow-wrap:anywhere;min-width:0}
table.list td .value .state{white-space:nowrap}
}
`;

const NAV: readonly [string, string][] = [
  ['orders', 'Orders'],
  ['notifications', 'Notifications'],
  ['faults', 'Faults'],
  ['clock', 'Clock and reset'],
];

/** A whole console page: viewport for phones, the navigation, an optional notice, the content. */
export function page(title: string, current: string, content: SafeHtml, notice?: string | null): string {
  const nav = NAV.map(
    ([key, label]) => html`<a href="/sandbox/console${key === 'orders' ? '' : `/${key}`}" ${current === key ? html` aria-current="page"` : ''}>${label}</a>`,
  );
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <link rel="icon" href="data:," />
        <title>${title} · gw sandbox console</title>
        <style>
          ${new SafeHtml(STYLE)}
        </style>
      </head>
      <body>
        <header>
          <strong>gw sandbox</strong>
          <nav aria-label="Console">${nav}</nav>
        </header>
        <main>${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}${content}</main>
      </body>
    </html>`.text;
}

/** A state badge. */
export function stateBadge(state: string): SafeHtml {
  return html`<span class="state state-${state}">${state.replace('_', ' ')}</span>`;
}
