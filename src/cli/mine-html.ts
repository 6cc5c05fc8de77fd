import { percent } from "../metrics/summary.js";
import type { CandidateTemplate } from "../mine/candidate.js";
import type { CatalogDraft } from "../mine/draft.js";
import type { MiningReport } from "../mine/mine-history.js";
import { chartCss, chartFigure, percentGrid } from "./chart-frame.js";
import { escapeForPage, type HtmlPageMeta, htmlPage, narrowScreenCss } from "./html-page.js";
import {
  coverageHeaders,
  coverageRows,
  identifierRows,
  identifierText,
  notTemplatableText,
  perDayBand,
  templateOf,
} from "./mine-text.js";
import { niceTicks } from "./nice-ticks.js";

/** What the page says about where the report came from. */
export type MiningHtmlMeta = HtmlPageMeta;

const e = escapeForPage;
const count = (value: number) => value.toLocaleString("en-US");

/**
 * The mining report as one self-contained HTML page, under the same rules as the escalation report:
 * inline CSS and SVG, no script, no request of any kind (a Content-Security-Policy of
 * `default-src 'none'`), every value from the history escaped. Skeletons and examples are shown with the
 * record values already masked into `{{collection.field}}` placeholders.
 */
export function renderMiningHtml(report: MiningReport, meta: MiningHtmlMeta, draft?: CatalogDraft): string {
  const full = report.coverage.at(-1);
  const fresh = report.newRecipients;
  return htmlPage(
    meta,
    css,
    `<section class="cards">
<div class="card"><div class="label">messages read</div><div class="value">${count(report.messages)}</div><div class="note">${count(report.malformed)} malformed line(s)</div></div>
<div class="card" id="new-recipients"><div class="label">new recipients</div><div class="value">${percent(fresh.rate)}</div><div class="note">${count(fresh.count)} · 95% CI ${percent(fresh.interval.low)}–${percent(fresh.interval.high)}</div></div>
<div class="card" id="predicted-rate"><div class="label">predicted escalation${full === undefined ? "" : `, ${full.k} template(s)`}</div><div class="value">${full === undefined ? "—" : percent(full.escalationRate)}</div><div class="note">${full === undefined ? "no templatable cluster" : `95% CI ${percent(full.interval.low)}–${percent(full.interval.high)}`}</div></div>
<div class="card"><div class="label">human decisions a day</div><div class="value">${e(perDayBand(full?.humanPerDay))}</div><div class="note">${report.messagesPerDay === undefined ? "no message has a time" : `at ${e(report.messagesPerDay.toFixed(1))} messages a day`}</div></div>
</section>
${languages(report)}
<section>
<h2>Coverage curve</h2>
${coverageChart(report)}
<table id="coverage-table"><thead><tr>${coverageHeaders.map((header, index) => `<th${index === 0 ? "" : ' class="n"'}>${e(header)}</th>`).join("")}</tr></thead><tbody>
${coverageRows(report.coverage)
  .map(
    (row) =>
      `<tr>${row.map((cell, index) => `<td${index === 0 ? "" : ' class="n"'}>${e(cell)}</td>`).join("")}</tr>`,
  )
  .join("\n")}
</tbody></table>
</section>
<section id="clusters">
<h2>Clusters (${count(report.candidates.length)}, biggest first)</h2>
${report.candidates
  .slice(0, 50)
  .map((candidate) => cluster(candidate, draft))
  .join("\n")}
</section>
${malformed(report)}
`,
  );
}

/** The languages dates were read in besides English and the records' own, and the history's language. */
function languages(report: MiningReport): string {
  const parts: string[] = [];
  if (report.language !== undefined)
    parts.push(
      `written in <strong>${e(report.language)}</strong> (drafts write dates in its order of digits)`,
    );
  if (report.locales.length > 0)
    parts.push(
      `dates also read in ${report.locales.map((locale) => `<code>${e(locale)}</code>`).join(", ")} (besides English and the languages records name)`,
    );
  return parts.length === 0 ? "" : `<p id="languages">${parts.join(" · ")}</p>`;
}

function cluster(candidate: CandidateTemplate, draft: CatalogDraft | undefined): string {
  const template = templateOf(candidate, draft);
  const identifiers = identifierRows(candidate, draft);
  const choices = candidate.choiceWords.map((choice) => `${e(choice.word)} (${choice.count})`).join(", ");
  return `<article class="cluster${candidate.templatable ? "" : " dim"}">
<h3>#${candidate.id} · ${count(candidate.size)} messages · ${candidate.templatable ? "templatable" : `not templatable (${notTemplatableText[candidate.notTemplatable ?? "too-few-messages"]})`} · residue ${percent(candidate.residue)}</h3>
<p class="skeleton">${e(candidate.skeleton || "(a single message)")}</p>
${candidate.slots.length > 0 ? `<p>slots: ${candidate.slots.map((slot) => `<code>${e(slot)}</code>`).join(" ")}</p>` : ""}
${choices === "" ? "" : `<p>choice candidates: ${choices}</p>`}
<p>recipients in records: ${count(candidate.recipientsResolved)}${candidate.recipient === undefined ? "" : ` (${e(candidate.recipient.source)})`}</p>
${template === undefined ? "" : `<p>drafted as template: <code>${e(template)}</code></p>`}
${identifiers.length === 0 ? "" : `<div class="identifiers"><p>identifier seen in history, left out:</p><ul>${identifiers.map((row) => `<li>${e(identifierText(row))}</li>`).join("")}</ul></div>`}
<details><summary>examples (record values masked)</summary><ul>${candidate.examples.map((example) => `<li>${e(example)}</li>`).join("")}</ul></details>
</article>`;
}

function malformed(report: MiningReport): string {
  if (report.malformed === 0) return "";
  const more = report.malformed - report.problems.length;
  return `<section id="malformed"><h2>Malformed lines</h2><ul>${report.problems
    .map((problem) => `<li>line ${problem.line}: ${e(problem.problem)}</li>`)
    .join("")}${more > 0 ? `<li>and ${more} more</li>` : ""}</ul></section>`;
}

const width = 760;
const height = 300;
const margin = { top: 16, right: 16, bottom: 40, left: 48 };

/** Coverage as bars per k, the predicted escalation rate as a line with its 95% interval as a band. */
function coverageChart(report: MiningReport): string {
  const points = report.coverage;
  if (points.length === 0) {
    return `<svg id="coverage-chart" role="img" aria-label="no templatable cluster" viewBox="0 0 ${width} 60" width="${width}" height="60"><text x="${margin.left}" y="35" class="empty">No cluster is big and regular enough to be a template.</text></svg>`;
  }
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const step = plotWidth / points.length;
  const x = (k: number) => margin.left + (k - 0.5) * step;
  const y = (value: number) => margin.top + plotHeight * (1 - value);
  const f = (value: number) => value.toFixed(1);
  const barWidth = Math.min(step * 0.6, 40);
  const bars = points
    .map(
      (point) =>
        `<rect class="bar" x="${f(x(point.k) - barWidth / 2)}" y="${f(y(point.coverage))}" width="${f(barWidth)}" height="${f(Math.max(1, y(0) - y(point.coverage)))}"><title>k = ${point.k}: coverage ${percent(point.coverage)}</title></rect>`,
    )
    .join("");
  const upper = points.map((point) => `${f(x(point.k))},${f(y(point.interval.high))}`);
  const lower = [...points].reverse().map((point) => `${f(x(point.k))},${f(y(point.interval.low))}`);
  const line = points
    .map((point, i) => `${i === 0 ? "M" : "L"}${f(x(point.k))},${f(y(point.escalationRate))}`)
    .join(" ");
  const dots = points
    .map(
      (point) =>
        `<circle class="rate-point" cx="${f(x(point.k))}" cy="${f(y(point.escalationRate))}" r="3"><title>k = ${point.k}: predicted escalation ${percent(point.escalationRate)} (95% CI ${percent(point.interval.low)}–${percent(point.interval.high)})</title></circle>`,
    )
    .join("");
  // Coverage and rate share one 0–100% axis, so both read off the same round gridlines.
  const ticks = percentGrid(niceTicks(1, { target: 4 }), y, margin.left, width - margin.right);
  // A single catalog size draws no line and a band of no width: its numbers are written beside it.
  const single = points.length === 1 ? singleLabels(points[0] as CoveragePoint, x, y) : "";
  const labels = points
    .map(
      (point) =>
        `<text class="tick" x="${f(x(point.k))}" y="${height - margin.bottom + 18}" text-anchor="middle">${point.k}</text>`,
    )
    .join("");
  return chartFigure(
    "coverage-chart",
    [
      ["bar", "coverage"],
      ["band", "95% interval"],
      ["line", "escalation rate"],
    ],
    `<svg id="coverage-chart" role="img" aria-label="coverage and predicted escalation rate by catalog size" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">
<g class="axes">${ticks}${labels}<text class="tick" x="${width / 2}" y="${height - 6}" text-anchor="middle">templates in the catalog (k)</text></g>
<g class="series">${bars}<polygon class="band" points="${[...upper, ...lower].join(" ")}"/><path class="rate-line" d="${line}"/>${dots}</g>${single}
</svg>`,
  );
}

type CoveragePoint = MiningReport["coverage"][number];

/** The values of a lone catalog size, with the rate's interval as a whisker, next to its bar. */
function singleLabels(point: CoveragePoint, x: (k: number) => number, y: (value: number) => number): string {
  const f = (value: number) => value.toFixed(1);
  const right = x(point.k) + 36;
  return `<g class="single-values"><line class="ci" x1="${f(x(point.k))}" x2="${f(x(point.k))}" y1="${f(y(point.interval.high))}" y2="${f(y(point.interval.low))}"/><text class="value-label" x="${f(right)}" y="${f(y(point.coverage) + 4)}">coverage ${percent(point.coverage)}</text><text class="value-label" x="${f(right)}" y="${f(y(point.escalationRate) + 4)}">escalation ${percent(point.escalationRate)} (95% CI ${percent(point.interval.low)}–${percent(point.interval.high)})</text></g>`;
}

const css = `
:root { color-scheme: light; --ink: #1d2430; --muted: #5d6778; --line: #d9dee7; --accent: #c2410c; --band: #fdba74; --bar: #2563eb; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
h1 { margin: 0 0 4px; font-size: 22px; }
h2 { margin: 28px 0 8px; font-size: 16px; }
h3 { margin: 0 0 4px; font-size: 14px; }
.subtitle { margin: 0; color: var(--muted); }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin-top: 20px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; min-width: 190px; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 26px; font-weight: 600; }
.card .note { color: var(--muted); font-size: 12px; }
svg { max-width: 100%; height: auto; display: block; }
svg text { font: 11px system-ui, sans-serif; fill: var(--ink); }
svg .tick { fill: var(--muted); }
svg .empty { fill: var(--muted); font-size: 13px; }
.grid { stroke: var(--line); stroke-width: 1; }
.band { fill: var(--band); fill-opacity: .55; stroke: none; }
.rate-line { fill: none; stroke: var(--accent); stroke-width: 2; }
.rate-point { fill: var(--accent); }
.bar { fill: var(--bar); fill-opacity: .35; }
table { border-collapse: collapse; margin: 8px 0 12px; min-width: 480px; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; }
th { font-weight: 600; color: var(--muted); font-size: 12px; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.cluster { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 8px 0; }
.cluster.dim { opacity: .7; }
.cluster p { margin: 4px 0; }
.skeleton { font-family: ui-monospace, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
code { font-family: ui-monospace, monospace; background: #f3f4f6; padding: 0 3px; border-radius: 3px; }
.ci { stroke: var(--ink); stroke-width: 1.5; }
svg .value-label { font-size: 12px; font-weight: 600; }
${chartCss}${narrowScreenCss}`;
