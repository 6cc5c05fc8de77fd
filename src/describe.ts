import type { Catalog } from "./catalog.js";
import type { CollectionSchemas } from "./records.js";
import { sanitizeValue } from "./sanitize.js";
import type { CompiledSlot } from "./template.js";
import type { PreparedTicket } from "./ticket.js";

const maxLabel = 120;

/**
 * The prompt text for one ticket: what each template is for and what its slots take, each record the
 * model may choose as `handle: label`, and the escalation codes. Labels are cleaned and cut so a record
 * cannot forge a line of this text.
 */
export function describeTicket<S extends CollectionSchemas>(
  catalog: Catalog<S>,
  ticket: PreparedTicket<S>,
): string {
  const lines: string[] = ["Templates: reply with exactly one, or escalate."];
  for (const template of catalog.templates) {
    lines.push(
      `- ${template.id} (${template.channel} to ${template.audience}): ${oneLine(template.description)}`,
    );
    const slots = [...template.slots, template.recipient]
      .filter((slot) => slot.slot.kind !== "derived")
      .map(describeSlot);
    if (slots.length > 0) lines.push(`  slots: ${slots.join("; ")}`);
  }
  lines.push("", "Records of this ticket (handle: label):");
  for (const [collection, prepared] of ticket.collections) {
    if (prepared.records.length === 0) continue;
    lines.push(`${collection}:`);
    prepared.records.forEach((record, index) => {
      lines.push(
        `- ${prepared.handles[index]}: ${oneLine(catalog.records.label(collection, record, index))}`,
      );
    });
  }
  lines.push("", `Escalation codes: ${catalog.escalationCodes.join(", ")}`);
  return lines.join("\n");
}

function describeSlot(compiled: CompiledSlot): string {
  const { slot, name } = compiled;
  const optional = slot.optional ? " (optional, null for none)" : "";
  const about = slot.kind !== "derived" && slot.description ? ` (${oneLine(slot.description, 200)})` : "";
  if (slot.kind === "choice")
    return `${name}${optional} = one of ${[...compiled.keys.keys()].join("|")}${about}`;
  if (slot.kind === "ref") return `${name}${optional} = a handle of ${slot.collection}${about}`;
  return name;
}

function oneLine(text: string, max = maxLabel): string {
  const clean = sanitizeValue(text, { neutralize: false });
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
