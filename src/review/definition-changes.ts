import type { FieldLabel } from "../core/definition/labels.js";
import type { CompiledSlot, Template } from "../core/definition/template-types.js";
import { currencyDigits, unitsText } from "../core/message/amounts.js";

/** One setting of a template's definition that differs, as both versions declare it, in words. */
export interface DefinitionChange {
  /**
   * What changed: `audience`, `channel`, `recipient`, `effect`, `approval`, `limits.perTicket`,
   * `limits.perDay`, `ceilings`, `firstContact`, `locales`, or `field <slot.tag>`: a field a slot shows,
   * with what it and its format read and each one's label.
   */
  readonly what: string;
  /** "(none)" where the base does not declare it (or does not show the field). */
  readonly base: string;
  readonly head: string;
}

const none = "(none)";

/**
 * The settings of two versions of one template (same id) that differ, in a review's order: who it is
 * written for and how it is sent, where it goes, what it does and who approves it, its limits,
 * ceilings, first contact and locales, then each field its slots read with its label. Texts and slot
 * sources are left to the parts and the message diff.
 */
export function definitionChanges(base: Template, head: Template): DefinitionChange[] {
  const changes: DefinitionChange[] = [];
  const compare = (what: string, before: string, after: string) => {
    if (before !== after) changes.push({ what, base: before, head: after });
  };
  compare("audience", base.audience, head.audience);
  compare("channel", base.channel, head.channel);
  compare("recipient", recipientSource(base), recipientSource(head));
  compare("effect", base.effect, head.effect);
  compare("approval", base.approval ?? none, head.approval ?? none);
  compare("limits.perTicket", String(base.limits.perTicket), String(head.limits.perTicket));
  compare("limits.perDay", String(base.limits.perDay), String(head.limits.perDay));
  compare("ceilings", ceilingsText(base), ceilingsText(head));
  compare("firstContact", base.firstContact ?? none, head.firstContact ?? none);
  compare("locales", localesText(base), localesText(head));
  const before = fieldsRead(base);
  const after = fieldsRead(head);
  for (const tag of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    compare(`field ${tag}`, before.get(tag) ?? none, after.get(tag) ?? none);
  }
  return changes;
}

/** "sellers.email where id = order.sellerId", "contacts.email (the model chooses)". */
export function recipientSource(template: Template): string {
  const slot = template.recipient.slot;
  const collection = slot.kind === "ref" ? slot.collection : slot.kind;
  const fields = template.recipient.fields.map((field) => field.field).join(", ");
  const joins = template.recipient.joins.map((join) => `${join.field} = ${join.slot}.${join.otherField}`);
  const where = slot.kind === "ref" && slot.where !== undefined ? " (filtered by where)" : "";
  const how =
    joins.length > 0
      ? ` where ${joins.join(" and ")}`
      : template.recipientChoice === "model-chooses"
        ? " (the model chooses)"
        : "";
  return `${collection}.${fields}${how}${where}`;
}

/** Each field a slot (or the recipient) shows, by tag: what it and its format read, each with its labels. */
function fieldsRead(template: Template): Map<string, string> {
  const fields = new Map<string, string>();
  const add = (slot: CompiledSlot) => {
    const collection = slot.slot.kind === "ref" ? slot.slot.collection : undefined;
    for (const field of slot.fields) {
      const reads = [field.field, ...field.reads].map((name) =>
        collection === undefined ? name : `${collection}.${name}`,
      );
      const labelled = reads.map((path) => {
        const labels = field.labels
          .filter((placed) => placed.path === path || placed.path.startsWith(`${path}.`))
          .map(
            (placed) =>
              `${placed.path === path ? "" : `${placed.path.slice(path.length + 1)} `}${labelText(placed.label)}`,
          );
        return labels.length === 0 ? `${path} (no label)` : `${path} (${labels.join("; ")})`;
      });
      fields.set(field.tag, labelled.join(", "));
    }
  };
  // The recipient's slot is among them, under its own name ("to").
  for (const slot of template.resolveOrder) add(slot);
  return fields;
}

function labelText(label: FieldLabel): string {
  return label.kind === "private"
    ? `readable by ${label.roles.join(", ")}`
    : `untrusted, written by ${label.author}`;
}

/** A ceiling's maximum as its definition writes it: "EUR 275.00" (stored in cents), "12.5" (in millionths). */
function maxText(currency: string, units: number): string {
  if (currency === "") return unitsText(units, 6).replace(/\.?0+$/, "");
  return `${currency} ${unitsText(units, currencyDigits(currency) ?? 2)}`;
}

/** "refunds (group refunds): item.amount, EUR 275.00 a message, EUR 5000.00 a day; over: escalate". */
function ceilingsText(template: Template): string {
  if (template.ceilings.length === 0) return none;
  return template.ceilings
    .map((ceiling) => {
      const max = [...ceiling.max]
        .map(([currency, windows]) =>
          Object.entries(windows)
            .map(([window, units]) => `${maxText(currency, units ?? 0)} a ${window}`)
            .join(", "),
        )
        .join("; ");
      return `${ceiling.name} (group ${ceiling.group}): ${ceiling.values.join(" + ")}, ${max}; over: ${ceiling.over}`;
    })
    .join(" | ");
}

function localesText(template: Template): string {
  const locales = template.locales;
  if (locales === undefined) return none;
  return `${locales.tags.join(", ")} (default ${locales.default})`;
}
