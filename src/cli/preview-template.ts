import { type FieldExposure, fieldExposure } from "../capacity/exposure.js";
import { ceilingText } from "../core/definition/ceilings.js";
import { maxSubjectLength, whatsappRules } from "../core/definition/channels.js";
import type { CompiledSlot, Template, TemplateEffect } from "../core/definition/template-types.js";
import { escapeForPage } from "./html-page.js";
import { codeSeesText, firstContactText } from "./preview-words.js";

/** Record values and template text are shown as text: escaped, control characters written out. */
export const e = escapeForPage;

/** Where an identifier may wrap: after the characters that join its words. */
const joints = /(?<=[_.\-/:@])/;
/** A part of an identifier longer than this may break anywhere, or it would push the page wider. */
const longPart = 24;

/**
 * An identifier (template id, slot, field, key, reason, handle) as page markup: escaped, and wrapping only
 * after `_`, `.`, `-`, `/`, `:` or `@`, never inside a word, so `service_booking` can never read
 * `service_boo king`. Only a part too long for any line may break inside. In a table (`wrap: false`) it
 * does not wrap at all: the table scrolls instead (Chromium breaks at `<wbr>` even in `nowrap`).
 */
export function ident(text: string, options: { readonly wrap: boolean } = { wrap: true }): string {
  if (!options.wrap) return `<span class="id nowrap">${e(text)}</span>`;
  const parts = text.split(joints);
  const long = parts.some((part) => Array.from(part).length > longPart);
  return `<span class="id${long ? " long" : ""}">${parts.map(e).join("<wbr>")}</span>`;
}

/** An identifier in a table cell: never wrapped. */
export const cellIdent = (text: string): string => ident(text, { wrap: false });

/**
 * A template's text with each tag marked: `{{order.number}}` as a slot, `{{#x}}…{{/x}}` as a section.
 * The text is escaped first and tags found in the escaped text, so nothing in it can become markup.
 */
export function highlightSource(source: string): string {
  return e(source).replace(
    /\{\{\s*([#^/]?)\s*([^{}]*?)\s*\}\}/g,
    (whole: string, sigil: string, tag: string) =>
      // The tag wraps only after a dot, like an identifier: `{{order.` then `delivered}}`.
      `<mark class="${sigil === "" ? "slot" : "section"}" title="${sigil === "" ? `slot ${tag}` : `section ${tag}`}">${whole.replace(/\./g, ".<wbr>")}</mark>`,
  );
}

/** The rules decide() applies on the template's channel, in sentences. */
export function channelRules(template: Template): string[] {
  switch (template.channel) {
    case "email":
      return [
        "one recipient, no cc, bcc or attachments; the address is lower-cased",
        `subject: one line, at most ${maxSubjectLength} characters`,
        ...(template.source.html === undefined
          ? []
          : ["HTML: every value is HTML-escaped; the HTML as a reader sees it is scanned too"]),
      ];
    case "sms":
      return [
        "recipient: a phone number in E.164",
        "GSM-7: 160 characters, 153 a segment when split; any other character: UCS-2, 70 then 67",
        `at most ${template.maxSegments} segment${template.maxSegments === 1 ? "" : "s"}`,
      ];
    case "whatsapp":
      return [
        "recipient: a phone number in E.164",
        `body at most ${whatsappRules.maxBody} characters, header at most ${whatsappRules.maxHeader}`,
        "no variable at the start or end or next to another; values without newlines, tabs or 4+ spaces",
      ];
    case "chat":
      return ["recipient: an opaque chat id from records, never free text"];
  }
}

/** Who may read a field, in the words of a security review. */
export function labelText(field: FieldExposure): string {
  switch (field.label) {
    case "untrusted":
      return `UNTRUSTED, written by ${field.author}`;
    case "private":
      return `PRIVATE, readable by ${field.readableBy?.join(", ") || "no role"}`;
    case "computed":
      return "computed in code";
    case "none":
      return "not labelled";
  }
}

/** Where one slot's value comes from. */
/** Each effect in words, as a reviewer reads it next to the approval. */
const effectText: Readonly<Record<TemplateEffect, string>> = {
  informational: "informational: tells the recipient something; nothing changes because of it",
  reversible: "reversible: asks for or starts something that can be called back",
  irreversible: "irreversible: starts something that cannot be taken back",
};

function origin(compiled: CompiledSlot, template: Template): string {
  const { slot } = compiled;
  if (slot.kind === "choice")
    return `the model picks one of ${compiled.keys.size} answers; their texts are written in code`;
  if (slot.kind === "derived")
    return "computed in code from what the audience may read; the model picks nothing";
  const filters = [
    slot.where === undefined ? undefined : "meets a condition written in code",
    ...compiled.joins.map(
      (join) => `has ${join.field} equal to ${join.otherField} of the ${join.slot} chosen`,
    ),
  ].filter((part) => part !== undefined);
  const picks = `the model picks one of the ticket's ${slot.collection} records${filters.length > 0 ? ` that ${filters.join(" and ")}` : ""}`;
  return compiled === template.recipient && template.recipientChoice === "model-chooses"
    ? `${picks}; declared recipient: "model-chooses": the model chooses which ${slot.collection} record receives the message`
    : picks;
}

/**
 * The review of one template: its settings, its channel's rules, its texts with the slots marked, and per
 * slot where the value comes from and the label of every field shown (read from the compiled template).
 */
export function templateReview(template: Template): string {
  const exposure = fieldExposure(template);
  const rows = template.resolveOrder.map((compiled) => {
    const { slot } = compiled;
    const fields = exposure.filter((field) => field.slot === compiled.name);
    const shown =
      slot.kind === "choice"
        ? `<ul class="keys">${Object.entries(slot.choices)
            .map(([key, label]) => `<li><code>${cellIdent(key)}</code>: ${e(label)}</li>`)
            .join("")}</ul>`
        : `<ul class="fields">${compiled.fields
            .map((field) => {
              const exposed = fields.find((candidate) => candidate.field === field.field);
              const label = exposed === undefined ? "" : labelText(exposed);
              const flag =
                exposed?.label === "untrusted" || exposed?.label === "private" ? exposed.label : "";
              const reads =
                field.reads.length > 0
                  ? `, also reads ${field.reads.map((read) => cellIdent(read)).join(", ")}`
                  : "";
              return `<li><code>{{${cellIdent(field.tag)}}}</code> ← ${slot.kind === "ref" ? cellIdent(`${slot.collection}.${field.field}`) : "computed"} <span class="format">(${e(field.format.kind === "money" ? (field.format.counts ?? "money") : field.format.kind)}, ≤ ${field.maxLength}${reads})</span> <span class="label ${flag}" data-label="${e(field.tag)}">${e(label)}</span></li>`;
            })
            .join("")}</ul>`;
    const role = compiled === template.recipient ? " (recipient)" : "";
    return `<tr><th scope="row"><code>${cellIdent(compiled.name)}</code>${role}</th><td>${e(slot.kind)}${slot.optional ? ", optional" : ""}</td><td class="prose">${e(origin(compiled, template))}</td><td class="prose">${shown}</td></tr>`;
  });
  const texts = [
    ["subject", template.source.subject],
    ["text", template.source.body],
    ["HTML", template.source.html],
  ] as const;
  return `<dl class="meta">
<dt>description</dt><dd>${e(template.description)}</dd>
<dt>audience</dt><dd>${e(template.audience)}</dd>
<dt>channel</dt><dd>${e(template.channel)}</dd>
<dt>limits</dt><dd>${template.limits.perTicket} per ticket, ${template.limits.perDay} per day</dd>
<dt>ceilings</dt><dd>${template.ceilings.length === 0 ? "none: bounded in messages, not amounts" : `<ul class="ceilings">${template.ceilings.map((ceiling) => `<li>${e(ceilingText(ceiling))}</li>`).join("")}</ul>`}</dd>
<dt>effect</dt><dd class="effect">${e(effectText[template.effect])}</dd>
<dt>approval</dt><dd>${template.approval === "human" ? "<strong>a person approves each draft</strong>" : "none: sent as decided"}</dd>
<dt>first contact</dt><dd class="first-contact">${e(firstContactText(template))}</dd>
<dt>its code sees</dt><dd>${e(codeSeesText(template))}</dd>
</dl>
<h4>Channel rules</h4>
<ul class="rules">${channelRules(template)
    .map((rule) => `<li>${e(rule)}</li>`)
    .join("")}</ul>
<h4>Text</h4>
${texts
  .filter(([, source]) => source !== undefined)
  .map(
    ([name, source]) =>
      `<figure class="source"><figcaption>${name}</figcaption><pre>${highlightSource(source as string)}</pre></figure>`,
  )
  .join("\n")}
<h4>Slots</h4>
<div class="scroll"><table class="slots"><thead><tr><th scope="col">slot</th><th scope="col">kind</th><th scope="col">value from</th><th scope="col">shown, with its label (to ${e(template.audience)})</th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table></div>`;
}
