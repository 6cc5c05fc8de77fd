import { deliveryEventCount, formatDeliveryOutcomes } from "../metrics/delivery-outcomes.js";
import { formatBand } from "../metrics/projection.js";
import type { EscalationReport, RateRow } from "../metrics/report.js";
import { percent } from "../metrics/summary.js";
import { chartCss, chartFigure, percentGrid } from "./chart-frame.js";
import { escapeForPage, type HtmlPageMeta, htmlPage, narrowScreenCss } from "./html-page.js";
import { niceTicks } from "./nice-ticks.js";
import type { TemplateEffects } from "./report-text.js";

/** What the page says about where the report came from. */
export type HtmlReportMeta = HtmlPageMeta;

const e = escapeForPage;
const dayMs = 86_400_000;

/**
 * The escalation report as one self-contained HTML page: inline CSS and SVG, no script, no font, no
 * request of any kind (a Content-Security-Policy of `default-src 'none'` makes sure), so it can be mailed,
 * attached to a ticket or opened offline. With `effects` (the catalog is known), the table by template
 * says what each template's messages do.
 */
export function renderHtmlReport(
  report: EscalationReport,
  meta: HtmlReportMeta,
  effects?: TemplateEffects,
): string {
  const first = report.firstContact;
  const { overall, projection } = report;
  const band = projection === undefined ? "—" : formatBand(projection);
  const volume =
    projection === undefined
      ? "no decision has a time"
      : `at ${e(Number(projection.ticketsPerDay.toPrecision(3)).toLocaleString("en-US"))} tickets a day (${projection.basis === "observed" ? `observed over ${projection.days} day${projection.days === 1 ? "" : "s"}` : "given"})`;
  return htmlPage(
    meta,
    css,
    `<section class="cards">
<div class="card" id="overall-rate"><div class="label">escalation rate</div><div class="value">${percent(overall.rate)}</div><div class="note">95% CI ${percent(overall.low)}–${percent(overall.high)}</div></div>
<div class="card"><div class="label">decided</div><div class="value">${overall.decided.toLocaleString("en-US")}</div><div class="note">${overall.sent.toLocaleString("en-US")} sent · ${overall.escalated.toLocaleString("en-US")} escalated</div></div>
<div class="card" id="projection"><div class="label">human decisions</div><div class="value">${e(band)}</div><div class="note">${volume}</div></div>
${first.firstContacts > 0 ? `<div class="card" id="first-contacts"><div class="label">first contacts</div><div class="value">${percent(first.rate)}</div><div class="note">${first.firstContacts} of ${first.sends} sends · 95% CI ${percent(first.low)}–${percent(first.high)}</div></div>` : ""}
${deliveryCard(report)}
${report.malformed.count > 0 ? `<div class="card warn"><div class="label">malformed lines</div><div class="value">${report.malformed.count}</div><div class="note">skipped, listed below</div></div>` : ""}
</section>
<section>
<h2>Daily escalation rate</h2>
${dailyChart(report.byDay)}
</section>
<section class="two">
<div>
<h2>Escalations by reason</h2>
${bars(
  "reason-bars",
  report.byReason.map((row) => ({
    label: row.reason,
    value: row.share,
    low: row.low,
    high: row.high,
    note: `${row.count}`,
  })),
  "share of all decisions",
)}
</div>
<div>
<h2>Escalation rate by template</h2>
${bars(
  "template-bars",
  report.byTemplate.map((row) => ({
    label: row.key,
    value: row.rate,
    low: row.low,
    high: row.high,
    note: `${row.escalated}/${row.decided}`,
  })),
  "escalated / decided",
)}
</div>
</section>
<section>
<h2>By reason</h2>
<table id="reason-table"><thead><tr><th>reason</th><th class="n">count</th><th class="n">share</th><th class="n">95% CI</th></tr></thead><tbody>
${report.byReason.map((row) => `<tr><td>${e(row.reason)}</td><td class="n">${row.count}</td><td class="n">${percent(row.share)}</td><td class="n">${percent(row.low)}–${percent(row.high)}</td></tr>`).join("\n")}
</tbody></table>
${reasonExamples(report)}
<h2>By template</h2>
${rateTable("template-table", "template", report.byTemplate, effects)}
${report.byTag
  .map(
    ({ tag, rows }, index) =>
      `<h2>By tag: ${e(tag)}</h2>\n${rateTable(`tag-${index + 1}-table`, e(tag), rows)}`,
  )
  .join("\n")}
<h2>By day</h2>
${rateTable("day-table", "day (UTC)", report.byDay)}
${versionTables(report)}
</section>
${malformed(report)}
<section class="definition">
<h2>What was counted</h2>
<ul>${report.definition.map((rule) => `<li>${e(rule)}</li>`).join("")}</ul>
${report.duplicates > 0 || report.deliveryFailures > 0 ? `<p>Duplicates: ${report.duplicates} · failed deliveries: ${report.deliveryFailures}</p>` : ""}
${report.truncated.length > 0 ? `<p>Groups capped (further keys counted under "(other)"): ${e(report.truncated.join(", "))}</p>` : ""}
</section>
`,
  );
}

function rateTable(id: string, heading: string, rows: readonly RateRow[], effects?: TemplateEffects): string {
  // A template the catalog does not hold (what the model wrote) has no effect: "-", as in the text.
  const effect = (key: string) => (effects === undefined ? "" : `<td>${e(effects.get(key) ?? "-")}</td>`);
  return `<table id="${id}"><thead><tr><th>${heading}</th>${effects === undefined ? "" : "<th>effect</th>"}<th class="n">decided</th><th class="n">sent</th><th class="n">escalated</th><th class="n">rate</th><th class="n">95% CI</th></tr></thead><tbody>
${rows.map((row) => `<tr><td>${e(row.key)}</td>${effect(row.key)}<td class="n">${row.decided}</td><td class="n">${row.sent}</td><td class="n">${row.escalated}</td><td class="n">${percent(row.rate)}</td><td class="n">${percent(row.low)}–${percent(row.high)}</td></tr>`).join("\n")}
</tbody></table>`;
}

/**
 * The rate by the catalog version that decided and by `template@version`: a log that spans a deploy shows
 * the rate before and after it. Versions are read back from the log only in a version's shape, but a
 * template id is whatever was recorded: every key is escaped like the other tables'.
 */
function versionTables(report: EscalationReport): string {
  if (report.byCatalogVersion.length === 0 && report.byTemplateVersion.length === 0)
    return `<h2>By version</h2>\n<p id="version-none">No decision recorded a catalog version.</p>`;
  return `<h2>By catalog version</h2>
${rateTable("catalog-version-table", "catalog version", report.byCatalogVersion)}
<h2>By template version</h2>
${rateTable("template-version-table", "template@version", report.byTemplateVersion)}`;
}

/** The first escalations of each reason with their history line (a replay's report only), as a table like the others. */
function reasonExamples(report: EscalationReport): string {
  const rows = report.byReason.flatMap((row) =>
    (row.examples ?? []).map(
      (example, index) =>
        `<tr>${index === 0 ? `<td rowspan="${row.examples?.length ?? 1}">${e(row.reason)}</td>` : ""}<td class="n">${e(example.line)}</td><td class="detail">${e(example.detail)}</td></tr>`,
    ),
  );
  if (rows.length === 0) return "";
  return `<h2>First escalations by reason</h2>
<table id="reason-examples"><thead><tr><th>reason</th><th class="n">line</th><th>detail</th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table>`;
}

function malformed(report: EscalationReport): string {
  if (report.malformed.count === 0) return "";
  const more = report.malformed.count - report.malformed.lines.length;
  return `<section id="malformed"><h2>Malformed lines</h2><ul>${report.malformed.lines
    .map((line) => `<li>line ${line.line}: ${e(line.problem)}</li>`)
    .join("")}${more > 0 ? `<li>and ${more} more</li>` : ""}</ul></section>`;
}

const width = 760;
const height = 300;
const margin = { top: 16, right: 16, bottom: 40, left: 48 };

/**
 * The rate axis: nice ticks up to the highest upper bound, so a low rate is not a flat line at the bottom
 * and every gridline is a round percentage. At least 1%: an all-zero history still has an axis.
 */
const rateAxis = (highs: readonly number[]) => niceTicks(Math.max(0, ...highs), { floor: 0.01, ceiling: 1 });

/** The rate of each day as a line, its 95% interval as a band; days without decisions break both. */
function dailyChart(days: readonly RateRow[]): string {
  if (days.length === 0) {
    return `<svg id="daily-chart" role="img" aria-label="no dated decisions" viewBox="0 0 ${width} 60" width="${width}" height="60"><text x="${margin.left}" y="35" class="empty">No decision has a time: nothing to show by day.</text></svg>`;
  }
  if (days.length === 1) return singleDay(days[0] as RateRow);
  const first = Date.parse(`${days[0]?.key}T00:00:00Z`);
  const last = Date.parse(`${days.at(-1)?.key}T00:00:00Z`);
  const span = Math.round((last - first) / dayMs) + 1;
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const axis = rateAxis(days.map((day) => day.high));
  const top = axis.top;
  const x = (key: string) =>
    margin.left + ((Math.round((Date.parse(`${key}T00:00:00Z`) - first) / dayMs) + 0.5) * plotWidth) / span;
  const y = (value: number) => margin.top + plotHeight * (1 - value / top);
  const f = (value: number) => value.toFixed(1);

  // Runs of consecutive days: a band or line across a day without decisions would claim a rate for it.
  const runs: RateRow[][] = [];
  let previous: number | undefined;
  for (const day of days) {
    const index = Math.round((Date.parse(`${day.key}T00:00:00Z`) - first) / dayMs);
    if (previous === undefined || index !== previous + 1) runs.push([]);
    runs.at(-1)?.push(day);
    previous = index;
  }
  const step = plotWidth / span;
  const shapes = runs
    .map((run) => {
      if (run.length === 1) {
        const day = run[0] as RateRow;
        const bandWidth = Math.min(step * 0.6, 24);
        // A day between days without decisions has no line to read its rate from: it is written beside it, where there is room.
        // Near the right edge the label goes to the left of the band, so it stays inside the plot.
        const right = x(day.key) > width - margin.right - 60;
        const value =
          step >= 40
            ? `<text class="point-value" x="${f(x(day.key) + (right ? -1 : 1) * (bandWidth / 2 + 3))}" y="${f(y(day.rate) + 4)}" text-anchor="${right ? "end" : "start"}">${percent(day.rate)}</text>`
            : "";
        return `<rect class="band" x="${f(x(day.key) - bandWidth / 2)}" y="${f(y(day.high))}" width="${f(bandWidth)}" height="${f(Math.max(1, y(day.low) - y(day.high)))}"/>${value}`;
      }
      const upper = run.map((day) => `${f(x(day.key))},${f(y(day.high))}`);
      const lower = [...run].reverse().map((day) => `${f(x(day.key))},${f(y(day.low))}`);
      const line = run.map((day, i) => `${i === 0 ? "M" : "L"}${f(x(day.key))},${f(y(day.rate))}`).join(" ");
      return `<polygon class="band" points="${[...upper, ...lower].join(" ")}"/><path class="rate-line" d="${line}"/>`;
    })
    .join("");
  const points = days
    .map(
      (day) =>
        `<circle class="day-point" cx="${f(x(day.key))}" cy="${f(y(day.rate))}" r="3"><title>${e(day.key)}: ${percent(day.rate)} (95% CI ${percent(day.low)}–${percent(day.high)}), ${day.escalated} of ${day.decided}</title></circle>`,
    )
    .join("");
  const ticks = percentGrid(axis, y, margin.left, width - margin.right);
  const labelEvery = Math.max(1, Math.ceil(span / 8));
  const dates: string[] = [];
  for (let index = 0; index < span; index += labelEvery) {
    const key = new Date(first + index * dayMs).toISOString().slice(0, 10);
    dates.push(
      `<text class="tick" x="${f(x(key))}" y="${height - margin.bottom + 18}" text-anchor="middle">${key.slice(5)}</text>`,
    );
  }
  return chartFigure(
    "daily-chart",
    [
      ["band", "95% interval"],
      ["line", "escalation rate"],
    ],
    `<svg id="daily-chart" role="img" aria-label="daily escalation rate with its 95% interval" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">
<g class="axes">${ticks}<line class="axis" x1="${margin.left}" x2="${width - margin.right}" y1="${f(y(0))}" y2="${f(y(0))}"/>${dates.join("")}</g>
<g class="series">${shapes}${points}</g>
</svg>`,
  );
}

/**
 * One day is no trend: a point alone on a time axis says nothing a reader can take in. It is said in a
 * sentence with its numbers, and drawn as one labelled bar with its interval like the bars below.
 */
function singleDay(day: RateRow): string {
  return `<p class="single-day" id="daily-single">Only ${e(day.key)} has decisions: <strong>${percent(day.rate)}</strong> escalated (${day.escalated} of ${day.decided}, 95% CI ${percent(day.low)}–${percent(day.high)}). A daily trend needs decisions on two days or more.</p>
${bars("daily-chart", [{ label: day.key, value: day.rate, low: day.low, high: day.high, note: `${day.escalated} of ${day.decided}` }], "escalated / decided that day")}`;
}

interface Bar {
  readonly label: string;
  readonly value: number;
  readonly low: number;
  readonly high: number;
  readonly note: string;
}

/** Horizontal bars with the 95% interval as a whisker. */
function bars(id: string, rows: readonly Bar[], caption: string): string {
  const barWidth = 360;
  const rowHeight = 24;
  const labelWidth = 170;
  const chartWidth = labelWidth + barWidth + 130;
  const chartHeight = rows.length * rowHeight + 28;
  if (rows.length === 0) {
    return `<svg id="${id}" role="img" aria-label="nothing to show" viewBox="0 0 ${chartWidth} 40" width="${chartWidth}" height="40"><text class="empty" x="0" y="24">Nothing escalated.</text></svg>`;
  }
  const top = rateAxis(rows.map((row) => row.high)).top;
  const x = (value: number) => labelWidth + (barWidth * value) / top;
  const f = (value: number) => value.toFixed(1);
  const body = rows
    .map((row, index) => {
      const y = index * rowHeight;
      const label = row.label.length > 26 ? `${row.label.slice(0, 25)}…` : row.label;
      return `<g class="bar-row"><text class="bar-label" x="${labelWidth - 8}" y="${y + 16}" text-anchor="end">${e(label)}</text><rect class="bar" x="${labelWidth}" y="${y + 5}" width="${f(Math.max(1, x(row.value) - labelWidth))}" height="${rowHeight - 10}"><title>${e(row.label)}: ${percent(row.value)} (95% CI ${percent(row.low)}–${percent(row.high)})</title></rect><line class="ci" x1="${f(x(row.low))}" x2="${f(x(row.high))}" y1="${y + 12}" y2="${y + 12}"/><text class="bar-value" x="${f(x(row.high) + 6)}" y="${y + 16}">${percent(row.value)} · ${e(row.note)}</text></g>`;
    })
    .join("");
  return chartFigure(
    id,
    [],
    `<svg id="${id}" role="img" aria-label="${e(caption)}" viewBox="0 0 ${chartWidth} ${chartHeight}" width="${chartWidth}" height="${chartHeight}">${body}<text class="tick" x="${labelWidth}" y="${chartHeight - 6}">${e(caption)}; whiskers: 95% interval</text></svg>`,
  );
}

const css = `
:root { color-scheme: light; --ink: #1d2430; --muted: #5d6778; --line: #d9dee7; --accent: #c2410c; --band: #fdba74; --bar: #2563eb; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
h1 { margin: 0 0 4px; font-size: 22px; }
h2 { margin: 28px 0 8px; font-size: 16px; }
.subtitle { margin: 0; color: var(--muted); }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin-top: 20px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; min-width: 190px; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 26px; font-weight: 600; }
.card .note { color: var(--muted); font-size: 12px; }
.card.warn { border-color: var(--accent); }
.two { display: flex; gap: 32px; flex-wrap: wrap; }
.two > div { min-width: 0; max-width: 100%; }
svg { max-width: 100%; height: auto; display: block; }
svg text { font: 11px system-ui, sans-serif; fill: var(--ink); }
svg .tick { fill: var(--muted); }
svg .empty { fill: var(--muted); font-size: 13px; }
.grid { stroke: var(--line); stroke-width: 1; }
.axis { stroke: var(--muted); stroke-width: 1; }
.band { fill: var(--band); fill-opacity: .55; stroke: none; }
.rate-line { fill: none; stroke: var(--accent); stroke-width: 2; }
.day-point { fill: var(--accent); }
svg .point-value { font-weight: 600; }
.bar { fill: var(--bar); fill-opacity: .8; }
.ci { stroke: var(--ink); stroke-width: 1.5; }
table { border-collapse: collapse; margin: 4px 0 12px; min-width: 480px; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; }
th { font-weight: 600; color: var(--muted); font-size: 12px; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.definition li { color: var(--muted); }
#reason-examples td { vertical-align: top; }
td.detail { overflow-wrap: anywhere; }
.single-day { margin: 0 0 8px; }
${chartCss}${narrowScreenCss}`;

/** What the providers reported after the sends, beside the escalation cards; nothing when none reported. */
function deliveryCard(report: EscalationReport): string {
  const outcomes = report.deliveryOutcomes;
  if (outcomes === undefined || deliveryEventCount(outcomes) === 0) return "";
  return `<div class="card" id="delivery-outcomes"><div class="label">delivery outcomes</div><div class="value">${outcomes.delivered.toLocaleString("en-US")} delivered</div><div class="note">${e(formatDeliveryOutcomes(outcomes))}</div></div>`;
}
