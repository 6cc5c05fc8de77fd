import type { PreparedTicket } from "../decision/ticket.js";
import { redactRecord, redactView } from "../message/redact.js";
import type { AnyRecord } from "./define-records.js";
import type { Reader } from "./label-checks.js";
import type { DerivedSlot, SlotContext } from "./slots.js";
import type { CompiledSlot, Template } from "./template-types.js";

/**
 * The rules of which record may fill a ref slot, and what code of a template may see: one definition,
 * used by decide() and by the LLM adapters when they list a ticket's candidates.
 */

/**
 * The records and earlier slots as `reader` may see them: what derived slots and `where` are given, so
 * code cannot put a value, at any depth, in front of a reader its label keeps it from.
 */
export function readerContext(
  template: Template,
  reader: Reader,
  ticket: PreparedTicket,
  context: SlotContext,
): SlotContext {
  const { plan, name } = reader;
  if (plan.size === 0) return context;
  const slots: Record<string, AnyRecord | string | undefined> = {};
  for (const earlier of template.resolveOrder) {
    // Every slot name is assigned (undefined when not resolved yet), so none reads an inherited property.
    const value = Object.hasOwn(context.slots, earlier.name) ? context.slots[earlier.name] : undefined;
    const cut = earlier.slot.kind === "ref" ? plan.get(earlier.slot.collection) : undefined;
    slots[earlier.name] =
      cut !== undefined && typeof value === "object" ? redactRecord(value, cut, name) : value;
  }
  return { ticketId: context.ticketId, records: redactView(ticket.view, plan, name), slots };
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
    value = slot.compute(readerContext(template, template.readers.audience, ticket, context));
  } catch {
    return "threw";
  }
  if (value === undefined || value === null) return slot.optional ? { value: undefined } : "missing";
  return { value: value as string };
}

/**
 * What a ref slot's `where` is given as its context: the slot's reader's view (the audience's, or for the
 * recipient one without outsiders' text). Undefined for a slot without `where`; build it once per slot.
 */
export function whereContext(
  compiled: CompiledSlot,
  template: Template,
  ticket: PreparedTicket,
  context: SlotContext,
): SlotContext | undefined {
  if (compiled.slot.kind !== "ref" || compiled.slot.where === undefined) return undefined;
  return readerContext(template, compiled.reader, ticket, context);
}

/**
 * Whether two joined fields hold the same key: the same value (`===`), or one key written as a number in
 * one record and as a string in the other (`ownerId: 42` and `id: "42"`, as exports of one database
 * often differ). Only a safe integer and its decimal string as `String` writes it are one key; nothing
 * looser: not " 42", "042", "+42", "42.0", "4.2e1" or "0x2A", not a boolean, and no number past 2^53,
 * whose digits a number no longer holds exactly. A join picks whose records a message shows, so a near
 * key never passes for one.
 */
export function sameKey(a: unknown, b: unknown): boolean {
  return a === b || (typeof a !== typeof b && joinKeyOf(a) === joinKeyOf(b));
}

/**
 * A value as a join looks it up: a safe integer as its decimal string, so the number and the string of
 * one key (see {@link sameKey}) find each other in a Map; every other value as itself.
 */
export function joinKeyOf(value: unknown): unknown {
  return typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
}

/**
 * Whether a record may fill a ref slot: its joins hold ({@link sameKey}, on the records themselves: joined fields are
 * label-checked when the template is defined) and its `where`, given the record and `view` as the slot's
 * reader sees them, returns true (a throw counts as false).
 */
export function passes(
  compiled: CompiledSlot,
  record: AnyRecord,
  context: SlotContext,
  view: SlotContext | undefined,
): boolean {
  for (const join of compiled.joins) {
    const other = context.slots[join.slot];
    if (
      typeof other !== "object" ||
      !Object.hasOwn(record, join.field) ||
      !Object.hasOwn(other, join.otherField)
    )
      return false;
    if (!sameKey(record[join.field], other[join.otherField])) return false;
  }
  const { slot } = compiled;
  if (slot.kind !== "ref" || slot.where === undefined) return true;
  const cut = compiled.reader.plan.get(slot.collection);
  const seen = cut === undefined ? record : redactRecord(record, cut, compiled.reader.name);
  try {
    return slot.where(seen, view ?? context) === true;
  } catch {
    return false;
  }
}
