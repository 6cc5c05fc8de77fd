import type { Template } from "../core/definition/template-types.js";

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
   * "untrusted": holds text written by `author` (only ever shown back to them); "private": readable by
   * `readableBy`; "none": an ordinary field; "computed": a derived slot, computed in code from what the
   * audience may read. Labels were read through every zod composition when the template was defined, so
   * every copy of formletter reports the same.
   */
  readonly label: "untrusted" | "private" | "none" | "computed";
  readonly author?: string;
  readonly readableBy?: readonly string[];
}

/** The fields each template shows or sends to, with their labels. */
export function fieldExposure(template: Template): FieldExposure[] {
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
      const collection = slot.collection;
      // The strictest label wins: untrusted text anywhere in the value, then the narrowest readers.
      const untrusted = field.labels.find(({ label }) => label.kind === "untrusted")?.label;
      const privates = field.labels.flatMap(({ label }) => (label.kind === "private" ? [label.roles] : []));
      if (untrusted?.kind === "untrusted") {
        exposure.push({ ...base, collection, label: "untrusted", author: untrusted.author });
      } else if (privates.length > 0) {
        const readers = privates.reduce((common, roles) => common.filter((role) => roles.includes(role)));
        exposure.push({ ...base, collection, label: "private", readableBy: readers });
      } else {
        exposure.push({ ...base, collection, label: "none" });
      }
    }
  }
  return exposure;
}
