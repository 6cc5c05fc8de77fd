import { type FieldLabel, fieldLabel } from "../labels.js";
import type { Template } from "../template.js";

/** Reads a field schema's label; the catalog's own copy of formletter holds the labels. */
export type LabelReader = (schema: unknown) => FieldLabel | undefined;

/** One field a template puts in front of its recipient, or uses as the address, and what it is. */
export interface FieldExposure {
  readonly template: string;
  readonly slot: string;
  /** The collection the field comes from; undefined for a derived slot (computed in code). */
  readonly collection: string | undefined;
  readonly field: string;
  /** "shown": in the subject or body; "recipient": the address only; "recipient, shown": both. */
  readonly use: "shown" | "recipient" | "recipient, shown";
  /** The recipient's role: who reads the field. */
  readonly shownTo: string;
  /**
   * "untrusted": written by `author` (only ever shown back to them); "private": readable by `readableBy`;
   * "none": an ordinary field; "computed": a derived slot, computed in code from what the audience may
   * read; "unknown": the label could not be read (see {@link labelCheck}).
   */
  readonly label: "untrusted" | "private" | "none" | "computed" | "unknown";
  readonly author?: string;
  readonly readableBy?: readonly string[];
}

/** The fields each template shows or sends to, with their labels. */
export function fieldExposure(template: Template, labelOf: LabelReader, readable: boolean): FieldExposure[] {
  const exposure: FieldExposure[] = [];
  for (const compiled of template.resolveOrder) {
    const { slot } = compiled;
    if (slot.kind === "choice") continue; // labels of keys are written in code
    const isRecipient = compiled === template.recipient;
    for (const field of compiled.fields) {
      const base = {
        template: template.id,
        slot: compiled.name,
        field: field.field,
        use: isRecipient ? (template.recipientShown ? "recipient, shown" : "recipient") : "shown",
        shownTo: template.audience,
      } as const;
      if (slot.kind === "derived") {
        exposure.push({ ...base, collection: undefined, label: "computed" });
        continue;
      }
      const shape = template.records.collections[slot.collection]?.shape as
        | Record<string, unknown>
        | undefined;
      const label = labelOf(shape?.[field.field]);
      if (label?.kind === "untrusted") {
        exposure.push({ ...base, collection: slot.collection, label: "untrusted", author: label.author });
      } else if (label?.kind === "private") {
        exposure.push({ ...base, collection: slot.collection, label: "private", readableBy: label.roles });
      } else {
        exposure.push({ ...base, collection: slot.collection, label: readable ? "none" : "unknown" });
      }
    }
  }
  return exposure;
}

/**
 * Whether `labelOf` reads the labels the catalog was checked with: "verified", "none found" (no field of
 * the records carries a label), or "unreadable". Each template lists the fields its audience may not see,
 * computed by the catalog's own copy of formletter, and each of those has a label: a reader that misses
 * one reads another copy's labels.
 */
export function labelCheck(
  templates: readonly Template[],
  labelOf: LabelReader,
): "verified" | "none found" | "unreadable" {
  let hidden = false;
  for (const template of templates) {
    for (const [collection, fields] of template.hidden) {
      const shape = template.records.collections[collection]?.shape as Record<string, unknown> | undefined;
      for (const field of fields) {
        hidden = true;
        if (labelOf(shape?.[field]) === undefined) return "unreadable";
      }
    }
  }
  if (hidden) return "verified";
  const records = templates[0]?.records;
  for (const collection of records?.names ?? []) {
    const shape = records?.collections[collection]?.shape as Record<string, unknown> | undefined;
    for (const schema of Object.values(shape ?? {})) if (labelOf(schema) !== undefined) return "verified";
  }
  return "none found";
}

/** The label reader of this copy of formletter: right whenever the catalog was built by it. */
export const ownLabels: LabelReader = fieldLabel;
