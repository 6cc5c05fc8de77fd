import type { DiffReview } from "../review/diff-review.js";
import { changeHeading, changeParts, messageCounts, ratesLine, runsHtml } from "./diff-runs.js";
import { changeLines, countsLine, type ReviewSources, renamedIds } from "./diff-text.js";
import { escapeForPage, htmlPage, narrowScreenCss } from "./html-page.js";

const e = escapeForPage;

/**
 * The review as one self-contained page, in the shell and under the policy of the other reports (no
 * script, no request): the review items, translations that may be outdated, the templates, capacity,
 * and the changed messages with their word diffs. Every text is escaped, message text included.
 */
export function reviewHtml(review: DiffReview, sources: ReviewSources, generatedAt: Date): string {
  const { messages, rates } = review;
  const cards = [
    card("review items", String(review.items.length), review.items.length > 0),
    card(
      "templates changed",
      String(review.changed.length + review.added.length + review.removed.length),
      false,
    ),
    ...(messages === null
      ? []
      : [
          card(
            "messages changed",
            String(messages.pairs - messages.unchanged),
            messages.pairs > messages.unchanged,
          ),
        ]),
    ...(rates === null
      ? []
      : [card("escalation rate", `${(rates.head.rate * 100).toFixed(1)}%`, rates.points > 0)]),
  ];
  const sections = [
    `<section class="cards">${cards.join("")}</section>`,
    section(
      "Review items",
      review.items.length === 0
        ? "<p>None.</p>"
        : `<ul id="review-items">${review.items.map((item) => `<li><code>${e(item.kind)}</code> <strong>${e(item.template)}</strong>: ${e(item.detail)}</li>`).join("")}</ul>`,
    ),
  ];
  if (review.translations.length > 0)
    sections.push(
      section(
        "May be outdated",
        `<p>The default text changed in these parts; the locale's own text did not.</p><ul id="translations">${review.translations.map((entry) => `<li><strong>${e(entry.template)}</strong> ${e(entry.locale)}: ${e(entry.parts.join(", "))}</li>`).join("")}</ul>`,
      ),
    );
  const renamed = renamedIds(review);
  const rows = [
    ...review.renamed.map((pair) => [
      e("renamed"),
      `${e(pair.from)} → ${e(pair.to)}`,
      e(pair.version),
      e(pair.version),
      "",
      "",
    ]),
    ...review.added
      .filter((side) => !renamed.has(side.id))
      .map((side) => [e("added"), e(side.id), "", e(side.version), "", ""]),
    ...review.removed
      .filter((side) => !renamed.has(side.id))
      .map((side) => [e("removed"), e(side.id), e(side.version), "", "", ""]),
    ...review.changed.map((change) => [
      e("changed"),
      e(change.id),
      e(change.base),
      e(change.head),
      e(change.parts.join(", ")),
      changeLines(change).map(e).join("<br>"),
    ]),
  ];
  sections.push(
    section(
      "Templates",
      `<p>${e(countsLine(review))}</p>${rows.length === 0 ? "" : table(["change", "template", "base", "head", "parts", "settings"], rows)}`,
    ),
  );
  const capacity = review.capacity.map((entry) => [
    e(entry.id),
    bits(entry.base),
    bits(entry.head),
    entry.base === entry.head ? "" : e("changed"),
  ]);
  sections.push(section("Capacity per message (bits)", table(["template", "base", "head", ""], capacity)));
  if (rates !== null) sections.push(section("Escalation rate", `<p id="rates">${e(ratesLine(rates))}</p>`));
  if (messages !== null) {
    const changes = messages.changes.map((change) => {
      const parts = changeParts(change).map(({ part, runs }) => `${e(part)}: ${runsHtml(runs)}`);
      const shown = parts.length === 0 ? "" : `<pre>${parts.join("\n")}</pre>`;
      return `<div class="change"><p>${e(changeHeading(change))}</p>${shown}</div>`;
    });
    const more = messages.more > 0 ? `<p>${messages.more} more, counted and not listed.</p>` : "";
    sections.push(
      section(
        `Messages over the ${messages.source}`,
        `<p>${e(messageCounts(messages))}</p>${changes.join("")}${more}`,
      ),
    );
  }
  return htmlPage(
    {
      title: "Template review",
      subtitle: `base ${sources.base} (${review.base.version}) → head ${sources.head} (${review.head.version})${sources.over === undefined ? "" : ` over ${sources.over}`}`,
      generatedAt,
    },
    css,
    sections.join("\n"),
  );
}

function card(label: string, value: string, warn: boolean): string {
  return `<div class="card${warn ? " warn" : ""}"><div class="label">${e(label)}</div><div class="value">${e(value)}</div></div>`;
}

function section(title: string, body: string): string {
  return `<section><h2>${e(title)}</h2>${body}</section>`;
}

/** A table; the cells are already escaped. */
function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return `<table><thead><tr>${head.map((cell) => `<th>${e(cell)}</th>`).join("")}</tr></thead><tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
}

function bits(value: number | undefined): string {
  return value === undefined ? "—" : value.toFixed(1);
}

const css = `
:root { color-scheme: light; --ink: #1d2430; --muted: #5d6778; --line: #d9dee7; --accent: #c2410c; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
h1 { margin: 0 0 4px; font-size: 22px; }
h2 { margin: 28px 0 8px; font-size: 16px; }
.subtitle { margin: 0; color: var(--muted); overflow-wrap: anywhere; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin-top: 20px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; min-width: 190px; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 26px; font-weight: 600; }
.card.warn { border-color: var(--accent); }
table { border-collapse: collapse; margin: 4px 0 12px; min-width: 480px; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; }
th { font-weight: 600; color: var(--muted); font-size: 12px; }
.change { border-top: 1px solid var(--line); padding-top: 4px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f8fa; padding: 8px; border-radius: 6px; }
del { background: #ffe4e4; color: #8a1111; }
ins { background: #dcfce7; color: #14532d; text-decoration: none; }
${narrowScreenCss}`;
