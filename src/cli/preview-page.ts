import type { Catalog } from "../core/decision/catalog.js";
import type { Template } from "../core/definition/template-types.js";
import type { PreviewDimension } from "../core/preview/combinations.js";
import type { TemplatePreview, TicketPreview } from "../core/preview/preview.js";
import { htmlDocument, selfContainedPolicy } from "./html-page.js";
import { previewCss } from "./preview-style.js";
import { cellIdent, e, ident, templateReview } from "./preview-template.js";
import { reasonForReviewer } from "./preview-words.js";

/** How the page is delivered: written as files (no script at all), or served with a reload script. */
export type PageMode =
  | { readonly kind: "static" }
  | {
      readonly kind: "served";
      /** The nonce the reload script carries; the policy allows no other script. */
      readonly nonce: string;
      /** What `/version` answers now: the page reloads when it changes. */
      readonly version: string;
      /** The served page's search, done on the server: messages holding this text. */
      readonly query: string | undefined;
    };

/** One entry of the page's ticket list: the ticket's id and what its records are, in their labels. */
export interface TicketLink {
  readonly id: string;
  /** The first record of the first collections, by label, and how many records in all. */
  readonly about: string;
}

/** What one page shows. */
export interface PreviewPage {
  readonly title: string;
  readonly catalog: Pick<Catalog, "templates" | "version">;
  /** Every ticket the page can switch to, by its ticket id and its records' labels. */
  readonly tickets: readonly TicketLink[];
  /** The index of the ticket shown, with its preview and its records' labels by handle. */
  readonly selected:
    | {
        readonly index: number;
        readonly preview: TicketPreview;
        readonly labels: ReadonlyMap<string, string>;
      }
    | undefined;
  /** A problem to show above everything, e.g. the catalog module failing to reload. */
  readonly warning: string | undefined;
  readonly mode: PageMode;
  /** The page of ticket `index`: a file name when static, a path when served. */
  readonly link: (index: number) => string;
}

/** The Content-Security-Policy of a page: nothing but inline style, and when served, one nonce'd script. */
export function pagePolicy(mode: PageMode): string {
  const base = `${selfContainedPolicy}; base-uri 'none'; form-action 'self'`;
  return mode.kind === "static" ? base : `${base}; script-src 'nonce-${mode.nonce}'; connect-src 'self'`;
}

/**
 * The catalog review page: the template list, each template's text with its slots and their labels, and
 * for the chosen ticket every message it can cause and every escalating combination. Every value is
 * escaped: record values are hostile. Static pages carry no script; served pages one, that only reloads.
 */
export function renderPreviewPage(page: PreviewPage): string {
  const { catalog, selected, mode } = page;
  const preview = selected?.preview;
  return htmlDocument(
    page.title,
    pagePolicy(mode),
    previewCss,
    `<a class="skip" href="#main">Skip to content</a>
<header>
<h1>${e(page.title)}</h1>
<p class="subtitle">catalog version ${e(catalog.version)} · ${catalog.templates.length} templates · ${mode.kind === "served" ? "reloads when the catalog module changes" : "static copy"}</p>
${page.warning === undefined ? "" : `<p class="warning" role="alert">${e(page.warning)}</p>`}
</header>
<nav aria-label="tickets and templates">
<h2 id="tickets">Tickets</h2>
${ticketList(page)}
<h2>Templates</h2>
<ul class="toc">${catalog.templates.map((template) => `<li><a href="#template-${e(template.id)}">${ident(template.id)}</a></li>`).join("")}</ul>
</nav>
<main id="main">
${mode.kind === "served" ? searchForm(page) : ""}
${preview === undefined ? "" : summary(preview)}
<section aria-labelledby="list-heading">
<h2 id="list-heading">Templates</h2>
${templateTable(catalog.templates, preview)}
</section>
${catalog.templates.map((template) => templateSection(page, template)).join("\n")}
</main>
${mode.kind === "served" ? reloadScript(mode) : ""}
`,
  );
}

function ticketList(page: PreviewPage): string {
  if (page.tickets.length === 0)
    return "<p>No sample ticket: pass --records or --history to see messages.</p>";
  return `<ul class="tickets">${page.tickets
    .map(
      (ticket, index) =>
        `<li><a href="${e(page.link(index))}"${page.selected?.index === index ? ' aria-current="page"' : ""}><span class="ticket-id">${e(ticket.id)}</span> <span class="ticket-about">${e(ticket.about)}</span></a></li>`,
    )
    .join("")}</ul>`;
}

function searchForm(page: PreviewPage): string {
  const query = page.mode.kind === "served" ? (page.mode.query ?? "") : "";
  const ticket = page.selected?.index ?? 0;
  return `<form class="search" method="get" action="" role="search"><input type="hidden" name="ticket" value="${ticket}"><label for="q">Search messages</label> <input id="q" name="q" type="search" value="${e(query)}"> <button type="submit">Search</button></form>`;
}

function summary(preview: TicketPreview): string {
  if (!preview.ok)
    return `<section id="ticket-summary"><h2>Ticket</h2><p class="warning">Its records are invalid: ${e(preview.problem)}</p></section>`;
  return `<section id="ticket-summary" aria-labelledby="summary-heading"><h2 id="summary-heading">Ticket ${e(preview.ticketId)}</h2>
<div class="cards">
<div class="card"><div class="label">distinct messages</div><div class="value" id="ticket-messages">${preview.messages}</div></div>
<div class="card"><div class="label">capacity</div><div class="value" id="ticket-bits">${bits(preview.bits)} bits</div><div class="note">log2 of the distinct messages${preview.exact ? "" : ", of those decided"}</div></div>
<div class="card"><div class="label">combinations</div><div class="value">${count(preview.combinations)}</div><div class="note">${count(preview.decided)} decided${preview.more > 0 ? `, <strong>${count(preview.more)} more</strong> not decided (raise --limit)` : ""}</div></div>
</div></section>`;
}

function templateTable(templates: readonly Template[], preview: TicketPreview | undefined): string {
  const of = (id: string) => (preview?.ok ? preview.templates.find((t) => t.template === id) : undefined);
  return `<div class="scroll"><table id="template-table"><thead><tr><th scope="col">template</th><th scope="col">description</th><th scope="col">audience</th><th scope="col">channel</th><th scope="col">limits</th><th scope="col">effect</th><th scope="col">approval</th>${preview?.ok ? '<th scope="col" class="n">messages</th><th scope="col" class="n">bits</th>' : ""}</tr></thead><tbody>
${templates
  .map((template) => {
    const shown = of(template.id);
    return `<tr><th scope="row"><a href="#template-${e(template.id)}">${cellIdent(template.id)}</a></th><td class="prose">${e(template.description)}</td><td>${e(template.audience)}</td><td>${e(template.channel)}</td><td>${template.limits.perTicket}/ticket, ${template.limits.perDay}/day</td><td class="effect">${e(template.effect)}</td><td>${template.approval === "human" ? "human" : "—"}</td>${shown === undefined ? "" : `<td class="n">${shown.messages.length}</td><td class="n">${bits(shown.bits)}</td>`}</tr>`;
  })
  .join("\n")}
</tbody></table></div>`;
}

function templateSection(page: PreviewPage, template: Template): string {
  const preview = page.selected?.preview;
  const shown = preview?.ok ? preview.templates.find((t) => t.template === template.id) : undefined;
  return `<section class="template" id="template-${e(template.id)}" aria-labelledby="heading-${e(template.id)}">
<h2 id="heading-${e(template.id)}">${ident(template.id)}${template.approval === "human" ? ' <span class="badge approval">needs approval</span>' : ""}</h2>
${templateReview(template)}
${shown === undefined || page.selected === undefined ? "" : messagesOf(page, shown, page.selected.labels)}
</section>`;
}

function messagesOf(page: PreviewPage, shown: TemplatePreview, labels: ReadonlyMap<string, string>): string {
  const query = page.mode.kind === "served" ? page.mode.query?.trim().toLowerCase() : undefined;
  const matches = (text: string) => !query || text.toLowerCase().includes(query);
  const messages = shown.messages.filter((entry) =>
    matches(
      [entry.message.to, entry.message.subject ?? "", entry.message.text, entry.message.html ?? ""].join(
        "\n",
      ),
    ),
  );
  const id = e(shown.template);
  return `<h3 id="messages-${id}">Messages on this ticket</h3>
${combinationList(shown.dimensions)}
<p class="counts" data-template="${id}">${count(shown.combinations)} combination${shown.combinations === 1 ? "" : "s"} · ${count(shown.decided)} decided${shown.more > 0 ? ` · <strong>${count(shown.more)} more not decided</strong>` : ""} · ${shown.messages.length} distinct message${shown.messages.length === 1 ? "" : "s"}${localeCounts(shown.byLocale)} · ${bits(shown.bits)} bits${shown.exact ? "" : " (of those decided)"}${query ? ` · ${messages.length} match the search` : ""}</p>
${messages.length === 0 ? "<p>No message.</p>" : `<ol class="messages">${messages.map((entry) => messageItem(entry, labels)).join("\n")}</ol>`}
<h3 id="escalations-${id}">Escalating combinations</h3>
${
  shown.escalations.length === 0
    ? "<p>None.</p>"
    : `<div class="scroll"><table class="escalations"><thead><tr><th scope="col">reason</th><th scope="col" class="n">combinations</th><th scope="col">what it means</th><th scope="col">example</th></tr></thead><tbody>${shown.escalations
        .map(
          (group) =>
            `<tr data-reason="${e(group.reason)}"><th scope="row">${cellIdent(group.reason)}</th><td class="n">${count(group.count)}</td><td class="prose">${e(reasonForReviewer[group.reason])}</td><td class="prose">${e(group.examples[0]?.detail ?? "")}</td></tr>`,
        )
        .join("")}</tbody></table></div>`
}`;
}

function messageItem(
  entry: TemplatePreview["messages"][number],
  labels: ReadonlyMap<string, string>,
): string {
  const { message } = entry;
  const chosen = Object.entries(entry.choices)
    .map(([slot, value]) => {
      const label = labels.get(value);
      return `<li><code>${ident(slot)}</code> = <code>${ident(value)}</code>${label === undefined ? "" : ` (${e(label)})`}</li>`;
    })
    .join("");
  return `<li class="message" id="message-${e(entry.key)}" data-key="${e(entry.key)}" data-outcome="${entry.outcome}">
<p class="head">${entry.outcome === "approval" ? '<span class="badge approval">needs approval</span> ' : '<span class="badge send">sends</span> '}<span class="channel">${e(message.channel)}</span> to <span class="to">${e(message.to)}</span>${message.sms === undefined ? "" : ` · <span class="sms">${message.sms.segments} segment${message.sms.segments === 1 ? "" : "s"}, ${e(message.sms.encoding)}</span>`}</p>
${message.subject === undefined ? "" : `<p class="subject-line">subject: <span class="subject">${e(message.subject)}</span></p>`}
<pre class="text">${e(message.text)}</pre>
${message.html === undefined ? "" : `<details><summary>HTML source</summary><pre class="html">${e(message.html)}</pre></details>`}
<details><summary>chosen records and key</summary><ul class="chosen">${chosen}</ul><p>key <code class="key">${ident(entry.key)}</code> · ${entry.combinations} combination${entry.combinations === 1 ? "" : "s"} give it</p></details>
</li>`;
}

/**
 * What the combinations are made of: per slot the model fills, how many values it can give and which,
 * so "left out" and "none" are counted in the open. The product of the counts is the combinations.
 */
function combinationList(dimensions: readonly PreviewDimension[]): string {
  if (dimensions.length === 0)
    return '<p class="dimensions">The model fills no slot: one combination, the template itself.</p>';
  const items = dimensions.map((dimension) => {
    const records = dimension.options.filter((option) => option.kind === "record").length;
    const keys = dimension.options.filter((option) => option.kind === "key").length;
    const parts = [
      dimension.kind === "ref"
        ? `${records} record${records === 1 ? "" : "s"} of ${ident(dimension.collection ?? "")}`
        : `${keys} answer${keys === 1 ? "" : "s"}`,
      ...(dimension.options.some((option) => option.kind === "none") ? ["none"] : []),
      ...(dimension.options.some((option) => option.kind === "left out") ? ["left out"] : []),
    ];
    return `<li data-slot="${e(dimension.slot)}"><code>${ident(dimension.slot)}</code>: ${dimension.options.length} = ${parts.join(" + ")}</li>`;
  });
  const legend = [
    dimensions.some((d) => d.options.some((option) => option.kind === "none"))
      ? "<em>none</em>: the model leaves an optional slot empty"
      : undefined,
    dimensions.some((d) => d.options.some((option) => option.kind === "left out"))
      ? "<em>left out</em>: the model does not name the slot; it is filled with the ticket's one fitting record when there is exactly one, left empty when optional, and otherwise the combination escalates"
      : undefined,
  ].filter((line) => line !== undefined);
  return `<p class="dimensions">Combinations counted: every value the model can give each slot, multiplied.</p>
<ul class="dimensions">${items.join("")}</ul>${legend.length === 0 ? "" : `<p class="legend">${legend.join("; ")}.</p>`}`;
}

function reloadScript(mode: Extract<PageMode, { kind: "served" }>): string {
  // Polls the server it came from; any other request is refused by the policy.
  return `<script nonce="${e(mode.nonce)}">
const shown = ${JSON.stringify(mode.version).replace(/</g, "\\u003c")};
setInterval(async () => {
  try {
    const answer = await fetch("/version", { cache: "no-store" });
    if (answer.ok && (await answer.text()) !== shown) location.reload();
  } catch {}
}, 700);
</script>`;
}

const count = (value: number) => value.toLocaleString("en-US");
/** " (de 3, es 1)": how many of a localised template's messages are in each locale. */
function localeCounts(byLocale: Readonly<Record<string, number>> | undefined): string {
  if (byLocale === undefined) return "";
  const parts = Object.entries(byLocale).map(([locale, messages]) => `${e(locale)} ${count(messages)}`);
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`;
}

const bits = (value: number) =>
  value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
