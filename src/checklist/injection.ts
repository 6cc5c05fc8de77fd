import { slotOptions } from "../capacity/enumerate.js";
import type { Catalog } from "../core/decision/catalog.js";
import type { Decision, Message, SendDecision } from "../core/decision/decision.js";
import type { PreparedTicket } from "../core/decision/ticket.js";
import { labelViolation } from "../core/definition/labels.js";
import type { Template } from "../core/definition/template-types.js";
import { clip } from "../core/message/sanitize.js";
import { hostileStrings } from "../testing/corpus.js";
import { unscannedParts } from "../testing/part-checks.js";
import type { FreshLabels } from "./field-labels.js";
import type { ChecklistItem } from "./types.js";

/** The message a decision produces: the one sent, or the draft a person would approve. */
function producedMessage(decision: Decision): SendDecision | undefined {
  if (decision.outcome === "send") return decision;
  if (decision.reason !== "approval_required" || decision.draft === undefined) return undefined;
  return {
    outcome: "send",
    ticketId: decision.ticketId ?? "",
    template: decision.template ?? "",
    message: decision.draft,
    values: decision.values ?? {},
    choices: decision.choices ?? {},
    key: decision.key ?? "",
  };
}

/** A word that survives every sanitiser (lower-case letters only) and appears in no template: a canary. */
function marker(index: number): string {
  let letters = "";
  let rest = index;
  do {
    letters = String.fromCharCode(97 + (rest % 26)) + letters;
    rest = Math.floor(rest / 26);
  } while (rest > 0);
  return `zq${letters}vx`;
}

function carries(message: Message, word: string): boolean {
  return [message.to, message.subject, message.text, message.html].some((part) => part?.includes(word));
}

/**
 * Up to `count` proposals per template that send (or wait for approval) on the sample: every choice the
 * model has is tried, as the capacity count does, and the sending ones are taken evenly spread.
 */
export function sendingProposals(
  catalog: Catalog,
  ticket: PreparedTicket,
  template: Template,
  count: number,
  maxTried = 5000,
): { template: string; slots: Record<string, string | null> }[] {
  const options = slotOptions(template, ticket);
  const sending: { template: string; slots: Record<string, string | null> }[] = [];
  let tried = 0;
  const slots: Record<string, string | null> = {};
  const visit = (index: number): void => {
    if (tried >= maxTried) return;
    const option = options[index];
    if (option === undefined) {
      tried += 1;
      const proposal = { template: template.id, slots: { ...slots } };
      if (producedMessage(catalog.decide(proposal, ticket)) !== undefined) sending.push(proposal);
      return;
    }
    for (const value of option.values) {
      slots[option.name] = value;
      visit(index + 1);
    }
  };
  visit(0);
  if (sending.length <= count) return sending;
  const step = sending.length / count;
  return Array.from(
    { length: count },
    (_, index) => sending[Math.floor(index * step)] as (typeof sending)[number],
  );
}

/** The text fields of the sample: each string field of each collection but `id`, in the sample's order. */
function textFields(sample: Record<string, unknown>): { collection: string; field: string }[] {
  const fields: { collection: string; field: string }[] = [];
  for (const [collection, rows] of Object.entries(sample)) {
    if (!Array.isArray(rows)) continue;
    const names = new Set<string>();
    for (const row of rows) {
      if (typeof row !== "object" || row === null) continue;
      for (const [name, value] of Object.entries(row))
        if (name !== "id" && typeof value === "string") names.add(name);
    }
    for (const field of names) fields.push({ collection, field });
  }
  return fields;
}

/**
 * Puts every hostile body of the corpus, followed by a canary word, into every text field of the sample
 * (all records of the collection at once, wherever the schema still accepts it), and replays sending
 * proposals of every template on each such ticket. Every message produced must pass the outbound scan
 * part by part, and the canary may reach only an audience the field's labels allow: untrusted text only
 * its author.
 */
export function injectionItem(
  catalog: Catalog,
  sample: unknown,
  ticket: PreparedTicket,
  labels: FreshLabels,
  proposalsPerTemplate: number,
): ChecklistItem {
  const proposals = catalog.templates.map((template) => ({
    template,
    proposals: sendingProposals(catalog, ticket, template, proposalsPerTemplate),
  }));
  const silent = proposals.filter((entry) => entry.proposals.length === 0).map((entry) => entry.template.id);
  const fields = textFields(sample as Record<string, unknown>);
  let tickets = 0;
  let refused = 0;
  let decisions = 0;
  let produced = 0;
  let carried = 0;
  const fieldsAccepting = new Set<string>();
  const failures: string[] = [];
  let index = 0;
  for (const { collection, field } of fields) {
    const violationFor = (audience: string) =>
      labels
        .of(collection, field)
        .labels.map(({ label }) => labelViolation(label, audience))
        .find((v) => v !== undefined);
    for (const [bodyIndex, body] of hostileStrings.entries()) {
      const word = marker(index++);
      const copy = structuredClone(sample) as Record<string, unknown>;
      for (const row of copy[collection] as unknown[]) {
        if (
          typeof row === "object" &&
          row !== null &&
          typeof (row as Record<string, unknown>)[field] === "string"
        ) {
          (row as Record<string, unknown>)[field] = `${body} ${word}`;
        }
      }
      if (!catalog.prepare(copy).ok) {
        refused += 1;
        continue;
      }
      tickets += 1;
      fieldsAccepting.add(`${collection}.${field}`);
      const where = `${collection}.${field} holding corpus body #${bodyIndex + 1} ${JSON.stringify(clip(body, 40))}`;
      for (const { template, proposals: chosen } of proposals) {
        for (const proposal of chosen) {
          decisions += 1;
          let decision: Decision;
          try {
            decision = catalog.decide(proposal, copy);
          } catch (error) {
            failures.push(
              `${template.id} with ${where}: decide threw ${clip(error instanceof Error ? error.message : String(error), 60)}`,
            );
            continue;
          }
          const sent = producedMessage(decision);
          if (sent === undefined) continue;
          produced += 1;
          const sentTemplate = catalog.template(sent.template) ?? template;
          for (const problem of unscannedParts(sentTemplate, sent))
            failures.push(`${template.id} with ${where}: ${problem.detail}`);
          if (carries(sent.message, word)) {
            carried += 1;
            const violation = violationFor(sentTemplate.audience);
            if (violation !== undefined) {
              failures.push(
                `${template.id} with ${where}: the injected text reached the ${sentTemplate.audience}, but ${violation}`,
              );
            }
          }
        }
      }
    }
  }
  const counted = `${hostileStrings.length} hostile bodies × ${fieldsAccepting.size} text fields = ${tickets} injected tickets (${refused} refused by the schema), ${decisions} decisions, ${produced} messages`;
  return {
    section: "live",
    template: undefined,
    check: "injection",
    status: failures.length === 0 && tickets > 0 ? "pass" : "fail",
    summary:
      tickets === 0
        ? "no text field of the sample accepts the corpus: nothing was injected"
        : failures.length === 0
          ? `${counted}: each passed the scan; injected text reached only readers its labels allow`
          : `${counted}: ${failures.length} failing`,
    evidence: [
      ...(failures.length > 0 ? [`first failing case: ${failures[0]}`] : []),
      `injected text shown in ${carried} messages${failures.length === 0 ? ", each to an audience its field's labels allow" : ""}`,
      ...(silent.length > 0
        ? [`templates that send nothing on the sample, so were not replayed: ${silent.join(", ")}`]
        : []),
    ],
  };
}
