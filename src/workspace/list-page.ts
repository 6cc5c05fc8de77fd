import { escapeForPage as e } from "../cli/html-page.js";
import { age } from "../cli/output.js";
import { escalationReasons } from "../core/decision/reasons.js";
import type { ListFilter, ListView } from "./list-query.js";
import { scrollingTable } from "./page-shell.js";

/** What the list page shows besides the view: who is looking, and the settings it measures against. */
export interface ListPageContext {
  readonly basePath: string;
  readonly operator: string;
  readonly now: number;
  readonly serviceLevelMs: number;
  readonly claimLapseMs: number;
  /** One line from the last action, from a closed list of messages. */
  readonly flash?: string | undefined;
}

const hours = (ms: number) => `${Math.round((ms / 3_600_000) * 10) / 10} h`;

function options(values: Iterable<string>, chosen: string | undefined, all: string): string {
  return [`<option value="">${e(all)}</option>`]
    .concat(
      [...values].map(
        (value) => `<option value="${e(value)}"${value === chosen ? " selected" : ""}>${e(value)}</option>`,
      ),
    )
    .join("");
}

function counts(title: string, name: string, counted: ReadonlyMap<string, number>, base: string): string {
  const entries = [...counted].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 30);
  if (entries.length === 0) return "";
  const links = entries
    .map(
      ([value, count]) =>
        `<li><a href="${e(`${base}/?${new URLSearchParams({ [name]: value })}`)}">${e(value || "(none)")}</a> <span class="n">${count}</span></li>`,
    )
    .join("");
  return `<h3>${e(title)}</h3><ul class="counts">${links}</ul>`;
}

function filterForm(view: ListView, filter: ListFilter, base: string): string {
  const reasons = escalationReasons.filter(
    (reason) => view.counts.reason.has(reason) || reason === filter.reason,
  );
  return `<form class="filters" method="get" action="${e(base)}/" role="search" aria-label="filter the queue">
<label>reason<select name="reason">${options(reasons, filter.reason, "any")}</select></label>
<label>template<select name="template">${options([...view.counts.template.keys()].filter(Boolean).sort(), filter.template, "any")}</select></label>
<label>tag<select name="tag">${options([...view.counts.tag.keys()].sort(), filter.tag, "any")}</select></label>
<label>older than (hours)<input type="number" name="older" min="0" step="0.5" value="${filter.olderThanHours ?? ""}"></label>
<label>claim<select name="claim">${options(["mine", "unclaimed"], filter.claim, "anyone's")}</select></label>
<button type="submit">Filter</button> <a href="${e(base)}/">clear</a>
</form>`;
}

function holder(item: ListView["items"][number]["item"], context: ListPageContext): string {
  if (item.status !== "claimed") return "-";
  const lapsed = context.now - (item.claimedAt ?? 0) >= context.claimLapseMs;
  return `${e(item.claimedBy ?? "")}${lapsed ? " (lapsed)" : ""}`;
}

/** The list page's body: the summary, the counts, the filters and one page of items, oldest first. */
export function listBody(view: ListView, filter: ListFilter, context: ListPageContext): string {
  const base = context.basePath;
  const oldest = view.oldestAt === undefined ? "-" : age(view.oldestAt, context.now);
  const oldestLate = view.oldestAt !== undefined && context.now - view.oldestAt > context.serviceLevelMs;
  const rows = view.items
    .map(({ item, tags }) => {
      const late = context.now - item.createdAt > context.serviceLevelMs;
      const href = `${base}/items/${encodeURIComponent(item.id)}`;
      const tagText = Object.entries(tags)
        .map(([name, value]) => `${name}=${value}`)
        .join(", ");
      return `<tr data-href="${e(href)}"${late ? ' class="late"' : ""}><th scope="row"><a href="${e(href)}">${e(item.id)}</a></th><td>${e(item.ticketId)}</td><td><code>${e(item.reason)}</code></td><td>${e(item.template ?? "-")}</td><td>${e(tagText || "-")}</td><td class="n">${e(age(item.createdAt, context.now))}${late ? ' <span class="late">past service level</span>' : ""}</td><td>${holder(item, context)}</td></tr>`;
    })
    .join("\n");
  const query = (page: number) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(filter))
      if (name !== "page" && value !== undefined)
        params.set(name === "olderThanHours" ? "older" : name, String(value));
    params.set("page", String(page));
    return `${base}/?${params}`;
  };
  const current = Math.min(filter.page, view.pages);
  const pager = `<p>page ${current} of ${view.pages}${current > 1 ? ` · <a href="${e(query(current - 1))}" rel="prev">previous</a>` : ""}${current < view.pages ? ` · <a href="${e(query(current + 1))}" rel="next">next</a>` : ""}</p>`;
  return `${context.flash === undefined ? "" : `<p class="flash" role="status">${e(context.flash)}</p>`}
<div id="live-region">
<section class="cards" aria-label="summary">
<div class="card"><div class="label">waiting</div><div class="value">${view.waiting}${view.truncated ? "+" : ""}</div></div>
<div class="card"><div class="label">oldest</div><div class="value${oldestLate ? " late" : ""}">${e(oldest)}</div></div>
<div class="card"><div class="label">past ${e(hours(context.serviceLevelMs))}</div><div class="value${view.pastServiceLevel > 0 ? " late" : ""}">${view.pastServiceLevel}</div><div class="note">the service level</div></div>
</section>
${view.truncated ? '<p class="warning">The queue holds more waiting items than the list reads: counts and filters cover the oldest 50,000.</p>' : ""}
<details><summary>Counts by reason, template and tag</summary>
${counts("by reason", "reason", view.counts.reason, base)}${counts("by template", "template", view.counts.template, base)}${counts("by tag", "tag", view.counts.tag, base)}
</details>
${filterForm(view, filter, base)}
<h2 id="items-heading">${view.matching} item(s), oldest first</h2>
${scrollingTable(
  "items",
  `<table aria-labelledby="items-heading"><thead><tr><th scope="col">item</th><th scope="col">ticket</th><th scope="col">reason</th><th scope="col">template</th><th scope="col">tags</th><th scope="col" class="n">age</th><th scope="col">claimed by</th></tr></thead>
<tbody>
${rows}
</tbody></table>`,
)}
${pager}
</div>
<p class="legend">Keys: j/k move, Enter opens.</p>`;
}
