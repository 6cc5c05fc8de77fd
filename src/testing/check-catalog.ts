import type { Catalog } from "../core/decision/catalog.js";
import type { Decision, SendDecision } from "../core/decision/decision.js";
import { escalationReasons } from "../core/decision/reasons.js";
import { escapeHtml, foldLine, noEscape } from "../core/definition/channels.js";
import type { AnyRecord, CollectionSchemas } from "../core/definition/define-records.js";
import type { Template } from "../core/definition/template-types.js";
import { renderParts } from "../core/definition/text-parts.js";
import { fieldsRead } from "../core/message/format.js";
import { sanitizeValue } from "../core/message/sanitize.js";
import { hostileOutputs, hostileStrings } from "./corpus.js";
import { leakedCanaries, withLabelCanaries } from "./label-canaries.js";
import { withLocaleVariation, writtenIn } from "./locale-variation.js";
import { misplacedHtmlValues, unscannedParts } from "./part-checks.js";

/** Options of {@link checkCatalog}. */
export interface CatalogCheckOptions {
  /** How many decisions to try. @default 500 */
  readonly runs?: number;
  /** The seed of the pseudo-random choices, so a failure can be replayed. @default 1 */
  readonly seed?: number;
}

/** One property that did not hold, with the output and whether the records were made hostile. */
export interface CatalogCheckFailure {
  readonly property:
    | "never_throws"
    | "closed_reason"
    | "recipient_from_records"
    | "message_is_template_and_values"
    | "no_hidden_text"
    | "labels_respected"
    | "every_part_scanned"
    | "html_values_in_text";
  readonly detail: string;
  readonly template: string | undefined;
  readonly output: unknown;
  readonly hostileRecords: boolean;
}

/** What {@link checkCatalog} tried and found. */
export interface CatalogCheckReport {
  readonly runs: number;
  readonly sends: number;
  readonly escalations: Readonly<Record<string, number>>;
  /** Empty when every property held. */
  readonly failures: readonly CatalogCheckFailure[];
}

// Characters that hide or reorder text, or control a terminal: never in a sent message.
const hidden =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/;

/**
 * Property checks for your own catalog, on a sample ticket of yours: random proposals (valid, mistaken
 * and hostile) against the ticket's records as they are and with hostile text in their fields. For every
 * decision it checks that `decide` did not throw, that an escalation has a reason from the closed list,
 * and for every send: that the recipient is the address of a record of the recipient's collection (the
 * one chosen), that the message is exactly the template's text with each slot's value formatted from the
 * chosen record, that no hidden or control character got through, that every part (subject, text, and
 * the HTML as a browser reads it) passes the outbound scan on its own, and that every value of the HTML
 * landed in text or a quoted attribute that is not a URL, style or event handler.
 *
 * @example
 * import { checkCatalog } from "formletter/testing";
 * const report = checkCatalog(catalog, sampleTicket, { runs: 1000 });
 * expect(report.failures).toEqual([]);
 */
export function checkCatalog<S extends CollectionSchemas>(
  catalog: Catalog<S>,
  ticket: unknown,
  options: CatalogCheckOptions = {},
): CatalogCheckReport {
  const prepared = catalog.prepare(ticket);
  if (!prepared.ok) throw new TypeError(`checkCatalog: the sample ticket is invalid: ${prepared.problem}`);
  const random = mulberry32(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const runs = options.runs ?? 500;
  const failures: CatalogCheckFailure[] = [];
  const escalations: Record<string, number> = {};
  let sends = 0;
  // Every labelled string of the ticket, at any depth, replaced by a canary word that may reach only
  // the readers its labels allow.
  const canaryTicket = withLabelCanaries(catalog.records as never, ticket, options.seed ?? 1);
  const localised = catalog.templates.some((template) => template.locales !== undefined);

  for (let run = 0; run < runs; run++) {
    const roll = random();
    const hostileRecords = roll < 0.4;
    const canaries = !hostileRecords && roll < 0.7 && canaryTicket.canaries.size > 0;
    const records = hostileRecords
      ? withHostileText(catalog, ticket, random, pick)
      : canaries
        ? canaryTicket.records
        : localised && roll < 0.85
          ? withLocaleVariation(catalog, ticket, pick)
          : ticket;
    const template = pick(catalog.templates);
    const output =
      random() < 0.2 ? hostileOutput(pick, template) : proposal(catalog, records, template, random, pick);
    const fail = (property: CatalogCheckFailure["property"], detail: string) =>
      failures.push({ property, detail, template: template.id, output, hostileRecords });
    let decision: Decision;
    try {
      decision = catalog.decide(output, records);
    } catch (error) {
      fail("never_throws", `decide threw: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (decision.outcome === "escalate") {
      if (!(escalationReasons as readonly string[]).includes(decision.reason))
        fail("closed_reason", `reason ${String(decision.reason)}`);
      escalations[decision.reason] = (escalations[decision.reason] ?? 0) + 1;
      continue;
    }
    sends += 1;
    const sent = catalog.template(decision.template);
    if (sent === undefined) {
      fail("message_is_template_and_values", `sent template ${decision.template} is not in the catalog`);
      continue;
    }
    // A localised message is made of its locale's text, labels and formats.
    for (const problem of checkSend(catalog, records, writtenIn(sent, decision), decision))
      fail(problem.property, problem.detail);
    if (canaries) {
      const { text, subject = "", html = "" } = decision.message;
      for (const leak of leakedCanaries(`${subject}\n${text}\n${html}`, canaryTicket.canaries, sent.audience))
        fail("labels_respected", leak);
    }
  }
  return { runs, sends, escalations, failures };
}

type Problem = { property: CatalogCheckFailure["property"]; detail: string };

/** The send-side properties: recipient, composition, hidden characters. */
function checkSend<S extends CollectionSchemas>(
  catalog: Catalog<S>,
  records: unknown,
  template: Template,
  decision: SendDecision,
): Problem[] {
  const problems: Problem[] = [];
  const byHandle = new Map<string, AnyRecord>();
  const prepared = catalog.prepare(records);
  if (!prepared.ok)
    return [
      { property: "message_is_template_and_values", detail: "a sent ticket's records do not validate" },
    ];
  for (const [collection, rows] of prepared.ticket.collections) {
    for (const [index, record] of rows.records.entries()) {
      byHandle.set(`${collection}\u0000${rows.handles[index]}`, record);
    }
  }
  const recordOf = (collection: string, handle: string | undefined) =>
    handle === undefined ? undefined : byHandle.get(`${collection}\u0000${handle}`);

  // Recipient: the normalised address of the record chosen for `to`, of the recipient's collection.
  const recipient = template.recipient;
  const field = recipient.fields[0];
  const chosenRecipient =
    recipient.slot.kind === "ref" ? recordOf(recipient.slot.collection, decision.choices.to) : undefined;
  const address =
    chosenRecipient === undefined || field === undefined
      ? undefined
      : (field.format.address ?? field.format.apply)(chosenRecipient[field.field], chosenRecipient);
  if (address === undefined || !address.ok || address.value !== decision.message.to) {
    problems.push({
      property: "recipient_from_records",
      detail: `message.to ${decision.message.to} is not the address of the chosen recipient record`,
    });
  }

  // Composition: every value re-derived from the chosen record, then the template rendered with them.
  const values = new Map<string, string>();
  const chosen: Record<string, unknown> = {};
  for (const compiled of template.resolveOrder) {
    const { slot, name } = compiled;
    if (slot.kind === "choice") {
      const key = decision.choices[name];
      chosen[name] = key;
      if (key !== undefined) values.set(name, slot.choices[key] as string);
      continue;
    }
    if (slot.kind === "derived") {
      const value = decision.values[name];
      chosen[name] = value;
      if (value !== undefined) values.set(name, value);
      continue;
    }
    const record = recordOf(slot.collection, decision.choices[name]);
    chosen[name] = record;
    if (record === undefined) continue;
    for (const shown of compiled.fields) {
      if (compiled === recipient && !(shown.tag in decision.values)) continue;
      const formatted = shown.format.apply(record[shown.field], fieldsRead(record, shown.reads));
      if (!formatted.ok) {
        problems.push({
          property: "message_is_template_and_values",
          detail: `${shown.tag} was sent though its value ${formatted.problem}`,
        });
        continue;
      }
      const expected = sanitizeValue(formatted.value, {
        multiline: shown.format.multiline,
        neutralize: shown.format.neutralize,
      });
      if (decision.values[shown.tag] !== expected) {
        problems.push({
          property: "message_is_template_and_values",
          detail: `${shown.tag} is not the chosen record's value`,
        });
      }
      values.set(shown.tag, expected);
    }
  }
  const parts: [string, typeof template.body | undefined, string | undefined, (value: string) => string][] = [
    ["text", template.body, decision.message.text, noEscape],
    ["subject", template.subject, decision.message.subject, foldLine],
    ["html", template.html, decision.message.html, escapeHtml],
  ];
  for (const [name, compiled, actual, escapeValue] of parts) {
    if (compiled === undefined) continue;
    const rendered = renderParts(compiled, values, chosen, escapeValue);
    if (rendered !== actual)
      problems.push({
        property: "message_is_template_and_values",
        detail: `the ${name} is not the template rendered with the chosen records' values`,
      });
  }
  for (const text of [decision.message.text, decision.message.subject ?? "", decision.message.html ?? ""]) {
    if (hidden.test(text))
      problems.push({
        property: "no_hidden_text",
        detail: "a control, bidi or zero-width character was sent",
      });
  }
  problems.push(...unscannedParts(template, decision), ...misplacedHtmlValues(template, chosen));
  return problems;
}

/** A proposal for `template`: mostly the ticket's own handles and keys, sometimes mistaken on purpose. */
function proposal<S extends CollectionSchemas>(
  catalog: Catalog<S>,
  records: unknown,
  template: Template,
  random: () => number,
  pick: <T>(items: readonly T[]) => T,
): unknown {
  let entries: { collection: string; id: string; handle: string }[] = [];
  try {
    entries = [...catalog.handles(records).entries];
  } catch {
    // Hostile text made the records invalid: any proposal ends as records_invalid.
  }
  const slots: Record<string, string | null> = {};
  for (const compiled of template.resolveOrder) {
    const { slot, name } = compiled;
    if (slot.kind === "derived") continue;
    const roll = random();
    if (slot.optional && roll < 0.15) {
      slots[name] = null;
      continue;
    }
    if (roll < 0.2) continue; // left out: filled when exactly one record fits
    if (slot.kind === "choice") {
      const key = pick(Object.keys(slot.choices));
      slots[name] =
        roll < 0.9 ? (random() < 0.5 ? key : key.toUpperCase()) : pick(hostileStrings).slice(0, 100);
      continue;
    }
    const own = entries.filter((entry) => entry.collection === slot.collection);
    if (roll < 0.85 && own.length > 0) slots[name] = pick(own).handle;
    else if (roll < 0.92 && entries.length > 0) slots[name] = pick(entries).handle;
    else if (own.length > 0) slots[name] = pick(own).id.slice(0, 100);
  }
  return { template: random() < 0.9 ? template.id : template.id.toUpperCase(), slots };
}

/** A structural attack, aimed at a real template id where it names one. */
function hostileOutput(pick: <T>(items: readonly T[]) => T, template: Template): unknown {
  const output = pick(hostileOutputs);
  if (
    typeof output === "object" &&
    output !== null &&
    !Array.isArray(output) &&
    (output as { template?: unknown }).template === "x"
  ) {
    return { ...output, template: template.id };
  }
  return output;
}

/**
 * A deep copy of the ticket with some string fields (never ids) replaced by hostile text — only where the
 * collection's schema still accepts it, so the hostile value reaches formatting instead of stopping at
 * validation.
 */
function withHostileText<S extends CollectionSchemas>(
  catalog: Catalog<S>,
  ticket: unknown,
  random: () => number,
  pick: <T>(items: readonly T[]) => T,
): unknown {
  const copy = structuredClone(ticket) as Record<string, unknown>;
  for (const [name, rows] of Object.entries(copy)) {
    const schema = (
      catalog.records.collections as Record<string, { safeParse(value: unknown): { success: boolean } }>
    )[name];
    if (name === "ticketId" || !Array.isArray(rows) || schema === undefined) continue;
    for (const row of rows) {
      if (typeof row !== "object" || row === null) continue;
      const fields = row as Record<string, unknown>;
      for (const field of Object.keys(fields)) {
        const value = fields[field];
        if (field === "id" || typeof value !== "string" || random() >= 0.4) continue;
        fields[field] = random() < 0.5 ? pick(hostileStrings) : `${value} ${pick(hostileStrings)}`;
        if (!schema.safeParse(fields).success) fields[field] = value;
      }
    }
  }
  return copy;
}

/** A small seeded generator (mulberry32): the same seed gives the same runs. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
