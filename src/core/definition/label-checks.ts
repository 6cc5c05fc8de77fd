import { templateError } from "../errors.js";
import { type RedactionPlan, redactionPlan } from "../message/redact.js";
import type { RecordsDefinition } from "./define-records.js";
import type { PlacedLabel } from "./label-tree.js";
import { labelsWithin } from "./label-tree.js";
import { labelViolation } from "./labels.js";

/**
 * The definition-time label rules of a template: every field a slot shows, a format reads or a join
 * compares must be readable by the audience, and nothing an outsider wrote may decide the recipient.
 */

/** Every label that applies to `collection.field`: those on the record as a whole and all under the field. */
export function labelsOfField(records: RecordsDefinition, collection: string, field: string): PlacedLabel[] {
  const tree = records.labelTrees.get(collection);
  if (tree === undefined) return [];
  const own = tree.own.map((label) => ({ path: collection, label }));
  const node = tree.fields.get(field) ?? tree.rest;
  return node === undefined ? own : [...own, ...labelsWithin(node, `${collection}.${field}`).labels];
}

/**
 * Throws unless the audience may read `collection.field`. `use` says what the slot does with it
 * ("shows", "formats with", "joins on"), so the message names the way the value would leak.
 */
export function checkReadable(
  id: string,
  slot: string,
  records: RecordsDefinition,
  audience: string,
  collection: string,
  field: string,
  use: string,
): PlacedLabel[] {
  const labels = labelsOfField(records, collection, field);
  for (const { path, label } of labels) {
    const violation = labelViolation(label, audience);
    if (violation !== undefined) {
      templateError(
        id,
        `${use} ${collection}.${field} for audience "${audience}", but ${path} is labelled: ${violation}; use another field or change the audience`,
        slot,
      );
    }
  }
  return labels;
}

/** Throws when `collection.field` holds anything an outsider wrote: such a field may not pick who receives a message. */
export function checkNotUntrusted(
  id: string,
  slot: string,
  records: RecordsDefinition,
  collection: string,
  field: string,
  use: string,
): void {
  for (const { path, label } of labelsOfField(records, collection, field)) {
    if (label.kind === "untrusted") {
      templateError(
        id,
        `${use} ${collection}.${field}, but ${path} is untrusted text written by "${label.author}": a field an outsider wrote may never decide who receives a message; use a field your system sets`,
        slot,
      );
    }
  }
}

/** Whose view of the records code runs with: `name` keys the caches of redacted records. */
export interface Reader {
  readonly name: string;
  readonly plan: RedactionPlan;
}

/**
 * The two views a template's code runs with: its audience's (derived slots, `where`), and for the
 * recipient's `where` that view without anything an outsider wrote.
 */
export function readersOf(
  records: RecordsDefinition,
  audience: string,
): { readonly audience: Reader; readonly recipient: Reader } {
  const hidden = (label: PlacedLabel["label"]) => labelViolation(label, audience) !== undefined;
  return {
    audience: { name: `audience:${audience}`, plan: redactionPlan(records.labelTrees, hidden) },
    recipient: {
      name: `recipient:${audience}`,
      plan: redactionPlan(records.labelTrees, (label) => label.kind === "untrusted" || hidden(label)),
    },
  };
}
