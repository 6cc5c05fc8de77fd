/** The preview page's style: readable from phone width to 1280 px and beyond, visible focus, no web fonts. */
export const previewCss = `
:root { color-scheme: light; --ink: #1d2430; --muted: #566172; --line: #d9dee7; --accent: #b42318; --warn: #9a3412; --mark: #fde68a; --section: #bfdbfe; --soft: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1240px; padding: 16px; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; display: grid; grid-template-columns: 220px minmax(0, 1fr); grid-template-areas: "head head" "nav main"; gap: 0 28px; }
header { grid-area: head; }
nav { grid-area: nav; }
main { grid-area: main; min-width: 0; }
@media (max-width: 760px) { body { display: block; padding: 12px; } nav ul.tickets, nav ul.toc { columns: 2; } }
@media (max-width: 480px) { nav ul.tickets { columns: 1; } dl.meta { grid-template-columns: minmax(0, 1fr); } dl.meta dt { margin-top: 4px; } }
h1 { margin: 0 0 4px; font-size: 22px; overflow-wrap: anywhere; }
h2 { margin: 28px 0 8px; font-size: 18px; overflow-wrap: anywhere; }
h3 { margin: 20px 0 6px; font-size: 16px; }
h4 { margin: 14px 0 4px; font-size: 14px; color: var(--muted); }
nav h2 { font-size: 14px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
nav ul { list-style: none; padding: 0; margin: 0; }
nav li { margin: 4px 0; overflow-wrap: anywhere; }
nav .ticket-id { display: block; }
nav .ticket-about { display: block; font-size: 12px; color: var(--muted); }
nav a[aria-current="page"] .ticket-about { font-weight: 400; }
a { color: #1d4ed8; }
a[aria-current="page"] { font-weight: 700; color: var(--ink); }
a:focus-visible, button:focus-visible, input:focus-visible, summary:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 16px; top: 8px; background: #fff; padding: 4px 8px; }
.subtitle { margin: 0; color: var(--muted); }
.warning { border: 1px solid var(--warn); color: var(--warn); border-radius: 6px; padding: 8px 12px; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 170px; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 22px; font-weight: 600; }
.card .note { color: var(--muted); font-size: 12px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 4px 0 12px; width: 100%; }
th, td { padding: 5px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; overflow-wrap: normal; }
thead th { font-weight: 600; color: var(--muted); font-size: 12px; white-space: nowrap; }
tbody th { white-space: nowrap; }
td.prose { min-width: 14em; }
#template-table td.prose { min-width: 9em; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.template { border-top: 2px solid var(--line); margin-top: 28px; }
dl.meta { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 14px; margin: 8px 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 4px 0; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
figure.source { margin: 6px 0; }
figure.source figcaption { font-size: 12px; color: var(--muted); }
mark { overflow-wrap: normal; }
mark.slot { background: var(--mark); border-radius: 3px; }
mark.section { background: var(--section); border-radius: 3px; }
ul.fields, ul.keys, ul.chosen, ul.rules { margin: 0; padding-left: 18px; }
.format { color: var(--muted); font-size: 13px; }
.label { font-size: 12px; font-weight: 600; white-space: nowrap; }
.label.untrusted, .label.private { color: #fff; background: var(--accent); border-radius: 4px; padding: 1px 6px; }
.label.private { background: #6d28d9; }
ol.messages { padding-left: 22px; }
li.message { margin: 0 0 16px; padding: 8px 10px; border: 1px solid var(--line); border-radius: 8px; }
li.message p { margin: 2px 0; overflow-wrap: anywhere; }
.badge { font-size: 12px; font-weight: 600; border-radius: 4px; padding: 1px 6px; }
.badge.send { background: #dcfce7; color: #14532d; }
.badge.approval { background: #ffedd5; color: #7c2d12; }
form.search { margin: 12px 0; display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
form.search input[type="search"] { font: inherit; padding: 4px 8px; min-width: 0; flex: 1 1 200px; }
button { font: inherit; padding: 4px 12px; }
summary { cursor: pointer; color: var(--muted); }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.id { overflow-wrap: normal; word-break: normal; }
.id.long { overflow-wrap: anywhere; }
.id.nowrap, td code, th code { white-space: nowrap; }
ul.dimensions { margin: 0 0 4px; padding-left: 18px; }
p.dimensions, p.legend { margin: 4px 0; }
p.legend { color: var(--muted); font-size: 13px; }
`;
