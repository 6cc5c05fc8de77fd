import type { Catalog } from "../core/decision/catalog.js";
import type { Decision, Message } from "../core/decision/decision.js";
import { labelViolation } from "../core/definition/labels.js";
import type { Template } from "../core/definition/template-types.js";
import { clip } from "../core/message/sanitize.js";
import { hostileStrings } from "../testing/corpus.js";
import { unscannedParts } from "../testing/part-checks.js";
import type { FreshLabels } from "./field-labels.js";
import { producedMessage, type SampleProposal } from "./sample-proposals.js";
import type { ChecklistItem } from "./types.js";

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
 * proposals of every template (`replayed`, a few per template) on each such ticket. Every message produced must pass the outbound scan
 * part by part, and the canary may reach only an audience the field's labels allow: untrusted text only
 * its author.
 */
export function injectionItem(
  catalog: Catalog,
  sample: unknown,
  labels: FreshLabels,
  replayed: readonly { readonly template: Template; readonly proposals: readonly SampleProposal[] }[],
): ChecklistItem {
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
      for (const { template, proposals } of replayed) {
        for (const proposal of proposals) {
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
    ],
  };
}
