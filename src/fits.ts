import type { AnyRecord } from "./records.js";
import { redactRecord, redactView } from "./redact.js";
import type { DerivedSlot, SlotContext } from "./slots.js";
import type { CompiledSlot, Template } from "./template.js";
import type { PreparedTicket } from "./ticket.js";

/**
 * The rules of which record may fill a ref slot, and what a derived slot may see: one definition, used
 * by decide() and by the LLM adapters when they list a ticket's candidates.
 */

/** What a derived slot is given: the records and earlier slots without the fields its audience may not see. */
function derivedContext(template: Template, ticket: PreparedTicket, context: SlotContext): SlotContext {
  const { hidden, audience } = template;
  if (hidden.size === 0) return context;
  const slots: Record<string, AnyRecord | string | undefined> = {};
  for (const earlier of template.resolveOrder) {
    const value = context.slots[earlier.name];
    const fields = earlier.slot.kind === "ref" ? hidden.get(earlier.slot.collection) : undefined;
    slots[earlier.name] =
      fields !== undefined && typeof value === "object" ? redactRecord(value, fields, audience) : value;
  }
  return { ticketId: context.ticketId, records: redactView(ticket.view, hidden, audience), slots };
}

/**
 * A derived slot's value for this ticket: `{ value }` (undefined when an optional slot has none), or why
 * there is none: its function threw, or a required slot got nothing.
 */
export function derivedValue(
  slot: DerivedSlot,
  template: Template,
  ticket: PreparedTicket,
  context: SlotContext,
): { value: string | undefined } | "threw" | "missing" {
  let value: unknown;
  try {
    value = slot.compute(derivedContext(template, ticket, context));
  } catch {
    return "threw";
  }
  if (value === undefined || value === null) return slot.optional ? { value: undefined } : "missing";
  return { value: value as string };
}

/** Whether a record may fill a ref slot: its joins hold and its `where` returns true (a throw counts as false). */
export function passes(compiled: CompiledSlot, record: AnyRecord, context: SlotContext): boolean {
  for (const join of compiled.joins) {
    const other = context.slots[join.slot];
    if (
      typeof other !== "object" ||
      !Object.hasOwn(record, join.field) ||
      !Object.hasOwn(other, join.otherField)
    )
      return false;
    if (record[join.field] !== other[join.otherField]) return false;
  }
  const { slot } = compiled;
  if (slot.kind !== "ref" || slot.where === undefined) return true;
  try {
    return slot.where(record, context) === true;
  } catch {
    return false;
  }
}
