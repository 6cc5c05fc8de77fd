import { escapeForPage as e } from "../cli/html-page.js";
import { age } from "../cli/output.js";
import type { ItemModel } from "./item-model.js";
import { scrollingTable } from "./page-shell.js";

/** What the item page needs besides the model. */
export interface ItemPageContext {
  readonly basePath: string;
  readonly operator: string;
  readonly csrf: string;
  readonly now: number;
  readonly serviceLevelMs: number;
  readonly claimLapseMs: number;
  /** Which approval the process can make: send now (an outbox), or leave for the next flush. */
  readonly approvals: { readonly approve: boolean; readonly release: boolean };
  /** Whether a person may write their own reply to the draft's recipient (`humanReplies`). */
  readonly replies?: boolean;
  readonly flash?: { readonly text: string; readonly refused: boolean } | undefined;
}

const when = (at: number) => new Date(at).toISOString().replace("T", " ").slice(0, 19);

/** A typed fact as nested terms: names and values shown as text, never as markup. */
function factValue(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return "-";
  if (Array.isArray(value))
    return e(
      value.map((part) => (typeof part === "object" ? JSON.stringify(part) : String(part))).join(", "),
    );
  if (typeof value === "object" && depth < 3)
    return `<dl class="meta">${Object.entries(value)
      .map(([name, inner]) => `<dt>${e(name)}</dt><dd>${factValue(inner, depth + 1)}</dd>`)
      .join("")}</dl>`;
  return e(typeof value === "object" ? JSON.stringify(value) : String(value));
}

function claimLine(model: ItemModel, context: ItemPageContext): string {
  const { item } = model;
  if (item.status !== "claimed") return item.status === "open" ? "nobody has claimed it" : "-";
  const left = (item.claimedAt ?? 0) + context.claimLapseMs - context.now;
  const holder = item.claimedBy === context.operator ? "you" : (item.claimedBy ?? "");
  return left > 0
    ? `claimed by ${holder}, ${age(context.now - left, context.now)} left on the claim`
    : `claimed by ${holder}; the claim has lapsed, anyone may take it`;
}

function form(context: ItemPageContext, id: string, action: string, label: string, fields = ""): string {
  return `<form class="action" method="post" data-action="${action}" action="${e(`${context.basePath}/items/${encodeURIComponent(id)}/${action}`)}"><input type="hidden" name="csrf" value="${e(context.csrf)}">${fields}<button type="submit">${e(label)}</button></form>`;
}

function actions(model: ItemModel, context: ItemPageContext): string {
  const { item } = model;
  if (item.status !== "open" && item.status !== "claimed")
    return `<p>This item is closed (${e(item.status)}${item.closedBy ? ` by ${e(item.closedBy)}` : ""}): nothing more can be done here.</p>`;
  const mine = item.status === "claimed" && item.claimedBy === context.operator;
  const lapsed = item.status === "claimed" && context.now - (item.claimedAt ?? 0) >= context.claimLapseMs;
  const parts: string[] = [];
  if (item.status === "open" || lapsed || mine)
    parts.push(form(context, item.id, "claim", mine ? "Renew my claim (c)" : "Claim (c)"));
  if (item.draft !== undefined) {
    if (context.approvals.approve)
      parts.push(form(context, item.id, "approve", "Approve and send this draft (a)"));
    if (context.approvals.release)
      parts.push(form(context, item.id, "release", "Approve: the outbox sends it on its next flush (a)"));
    if (context.replies === true)
      parts.push(
        `<p><a href="${e(`${context.basePath}/items/${encodeURIComponent(item.id)}/reply`)}">Write your own reply to ${e(item.draft.to)}</a></p>`,
      );
  }
  parts.push(
    form(
      context,
      item.id,
      "reject",
      "Reject (r)",
      `<label>why (sent to no one)<textarea name="note" required maxlength="4000" rows="2"></textarea></label>`,
    ),
    form(
      context,
      item.id,
      "resolve",
      "Resolve",
      `<label>resolution<input type="text" name="resolution" required maxlength="200" placeholder="replied by phone"></label><label>note<textarea name="note" maxlength="4000" rows="2"></textarea></label>`,
    ),
  );
  return parts.join("\n");
}

function draftSection(model: ItemModel): string {
  const draft = model.item.draft;
  if (draft === undefined) return "<p>No draft: nothing would be sent. Reject or resolve it.</p>";
  // The HTML part is shown in a frame with every sandbox restriction (no script, no form, no origin)
  // and the page's policy inherited (nothing loads), and as its source beside it.
  return `<dl class="meta">
<dt>channel</dt><dd>${e(draft.channel)}</dd>
<dt>to</dt><dd>${e(draft.to)}</dd>
${draft.subject === undefined ? "" : `<dt>subject</dt><dd>${e(draft.subject)}</dd>`}
${draft.locale === undefined ? "" : `<dt>locale</dt><dd>${e(draft.locale)}</dd>`}
</dl>
<h3>text, exactly as it would be sent</h3>
<pre class="draft-text">${e(draft.text)}</pre>
${
  draft.html === undefined
    ? ""
    : `<h3>HTML</h3><iframe class="draft" sandbox="" referrerpolicy="no-referrer" title="the HTML part of the draft" srcdoc="${e(draft.html)}"></iframe><details><summary>HTML source</summary><pre>${e(draft.html)}</pre></details>`
}`;
}

function slotTable(model: ItemModel): string {
  if (model.slots.length === 0) return "<p>No slot values were recorded.</p>";
  const rows = model.slots
    .map(
      (row) =>
        `<tr><th scope="row"><code>${e(row.slot)}</code></th><td>${e(row.kind)}</td><td><code>${e(row.chosen ?? "-")}</code></td><td>${e(row.source ?? "-")}</td><td>${e(row.field ?? "-")}</td><td>${e(row.value ?? "-")}</td><td>${e(row.label ?? "-")}</td></tr>`,
    )
    .join("");
  return `${model.recordsProblem === undefined ? "" : `<p class="warning">The ticket's records could not be read now: ${e(model.recordsProblem)}</p>`}
${scrollingTable("slots", `<table><thead><tr><th scope="col">slot</th><th scope="col">kind</th><th scope="col">chosen</th><th scope="col">source record (now)</th><th scope="col">field</th><th scope="col">value in the draft</th><th scope="col">label</th></tr></thead><tbody>${rows}</tbody></table>`)}`;
}

function historyTable(model: ItemModel): string {
  if (model.history.length === 0) return "<p>No one has acted on it yet.</p>";
  const rows = model.history
    .map((event) => {
      const { action, resolution, note, takenFrom, sentNow, message, scan } = event.data as Record<
        string,
        unknown
      >;
      const reply = (message ?? {}) as { subject?: unknown; text?: unknown };
      const said = [
        typeof reply.subject === "string" ? `subject: ${reply.subject}` : "",
        typeof reply.text === "string" ? `reply: ${reply.text}` : "",
        typeof scan === "string" ? `the scan pointed out: ${scan}` : "",
        typeof resolution === "string" ? `resolution: ${resolution}` : "",
        typeof note === "string" ? `note: ${note}` : "",
        typeof takenFrom === "string" ? `taken from ${takenFrom}` : "",
        sentNow === false ? "nothing new was sent" : "",
      ]
        .filter(Boolean)
        .join("; ");
      return `<tr><td>${e(when(event.at))}</td><td>${e(event.actor)}</td><td>${e(String(action ?? "-"))}</td><td>${e(said || "-")}</td></tr>`;
    })
    .join("");
  return scrollingTable(
    "earlier actions",
    `<table><thead><tr><th scope="col">when (UTC)</th><th scope="col">who</th><th scope="col">action</th><th scope="col">details</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

/**
 * The versions the item was decided under: a draft approved after a deploy is still the text of the
 * template version shown here, whatever is deployed now.
 */
function versionsLine(versions: ItemModel["item"]["decidedUnder"] | undefined): string {
  if (versions === undefined) return "not recorded";
  const parts = [
    versions.templateVersion === undefined ? undefined : `template version ${versions.templateVersion}`,
    versions.catalogVersion === undefined ? undefined : `catalog version ${versions.catalogVersion}`,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? "not recorded" : parts.join(" · ");
}

/** The item page's body. Every stored value (records, notes, draft) is written as escaped text. */
export function itemBody(model: ItemModel, context: ItemPageContext): string {
  const { item } = model;
  const { note: _, ...facts } = item.facts ?? {};
  const late = context.now - item.createdAt > context.serviceLevelMs;
  const flash = context.flash;
  return `${flash === undefined ? "" : `<p class="flash${flash.refused ? " refused" : ""}" role="${flash.refused ? "alert" : "status"}">${e(flash.text)}</p>`}
<div id="live-region">
<h2>Item ${e(item.id)} · <code>${e(item.reason)}</code> · ${e(item.status)}</h2>
<p id="claim">${e(claimLine(model, context))}</p>
<section aria-label="actions">${actions(model, context)}</section>
<h2>Ticket</h2>
<dl class="meta">
<dt>ticket</dt><dd>${e(item.ticketId)}</dd>
<dt>run</dt><dd>${e(item.runId)}</dd>
<dt>template</dt><dd>${e(item.template ?? "-")}</dd>
<dt>decided under</dt><dd>${e(versionsLine(item.decidedUnder))}</dd>
<dt>waiting</dt><dd${late ? ' class="late"' : ""}>${e(age(item.createdAt, context.now))} (since ${e(when(item.createdAt))} UTC)${late ? " · past the service level" : ""}</dd>
<dt>tags</dt><dd>${e(
    Object.entries(model.tags)
      .map(([name, value]) => `${name}=${value}`)
      .join(", ") || "-",
  )}</dd>
<dt>detail</dt><dd>${e(item.detail)}</dd>
${item.note === undefined ? "" : `<dt>model's note (never sent)</dt><dd>${e(item.note)}</dd>`}
${item.resolution === undefined ? "" : `<dt>closed</dt><dd>${e(item.resolution)}${item.closeNote ? `: ${e(item.closeNote)}` : ""}</dd>`}
</dl>
<h2>Why it is here</h2>
${Object.keys(facts).length === 0 ? "<p>No typed facts were recorded beside the reason.</p>" : factValue(facts)}
<h2>The model's proposal, as parsed</h2>
<pre>${e(model.proposal === undefined ? "not recorded" : JSON.stringify(model.proposal, null, 2))}</pre>
<h2>The draft</h2>
${draftSection(model)}
<h2>Slots</h2>
${slotTable(model)}
<h2>Earlier actions</h2>
${historyTable(model)}
</div>
<p class="legend">Keys: c claims, a approves (after a confirmation), r rejects.</p>`;
}
