import { hash } from "node:crypto";
import type { Template } from "../definition/template-types.js";
import type { PreparedTicket } from "./ticket.js";

/**
 * What a send chose for one slot: a record, named by its collection and id, or a key of a choice list.
 * Never a handle: a handle can change when records are added to the ticket (handles that collide are
 * lengthened), and a key that followed it would let the same message be sent again.
 */
export type ChosenValue = { readonly collection: string; readonly id: string } | string;

// Bumped if the encoding ever changes, so two encodings can never produce the same hash input.
const version = "formletter-key/3";

/**
 * The idempotency key of a send: ticket, template and what each chosen slot names (a record's collection
 * and id, or a choice key), hashed. The same message always gets the same key, however the ticket's
 * handles were assigned, and no two different choices share one.
 *
 * @example
 * // Internal: the root holds this back on purpose (see src/index.ts).
 * import { idempotencyKey } from "./idempotency.js";
 * idempotencyKey("T-1", "tracking_request", { order: { collection: "orders", id: "4471-2290" }, tone: "polite" });
 * // "fl_…": 32 hex digits after the prefix, whatever the inputs' lengths
 */
export function idempotencyKey(
  ticketId: string,
  template: string,
  choices: Readonly<Record<string, ChosenValue>>,
): string {
  const names = Object.keys(choices).sort();
  return keyFrom(
    ticketId,
    template,
    names.map((name) => [name, choices[name] as ChosenValue]),
  );
}

/**
 * The key of a decided send: each chosen handle is turned back into the record it names in `ticket`
 * (the handle was just resolved there), with the template's slot names sorted once, at definition.
 */
export function keyOf(
  ticket: PreparedTicket,
  template: Template,
  choices: Readonly<Record<string, string>>,
): string {
  const chosen: [string, ChosenValue][] = [];
  for (const [name, collection] of keySlotsOf(template)) {
    const choice = Object.hasOwn(choices, name) ? choices[name] : undefined;
    if (choice === undefined) continue;
    if (collection === undefined) {
      chosen.push([name, choice]);
      continue;
    }
    const record = ticket.collections.get(collection)?.byHandle.get(choice);
    // decide() resolved this handle in this ticket a moment ago; a record is always found.
    chosen.push([name, { collection, id: record?.id ?? `\u0000handle:${choice}` }]);
  }
  return keyFrom(ticket.ticketId, template.id, chosen);
}

const keySlots = new WeakMap<Template, readonly (readonly [string, string | undefined])[]>();

/** The chosen slots in key order, each with its collection (undefined for a choice): once per template. */
function keySlotsOf(template: Template): readonly (readonly [string, string | undefined])[] {
  let slots = keySlots.get(template);
  if (slots === undefined) {
    const byName = new Map(template.resolveOrder.map((compiled) => [compiled.name, compiled.slot]));
    slots = template.keyOrder.map((name) => {
      const slot = byName.get(name);
      return [name, slot?.kind === "ref" ? slot.collection : undefined] as const;
    });
    keySlots.set(template, slots);
  }
  return slots;
}

/**
 * Hashes a prefix-free encoding: every string is written as its length, ":" and itself, and each chosen
 * value is tagged ("k" a choice key, "r" a record's collection and id), so no choice can end where
 * another begins (`a` + `bc` and `ab` + `c` encode differently) and a record never encodes like a key.
 */
function keyFrom(ticketId: string, template: string, chosen: readonly [string, ChosenValue][]): string {
  let encoded = field(version) + field(ticketId) + field(template);
  for (const [name, value] of chosen) {
    encoded +=
      typeof value === "string"
        ? `${field(name)}k${field(value)}`
        : `${field(name)}r${field(value.collection)}${field(value.id)}`;
  }
  return `fl_${hash("sha256", encoded, "hex").slice(0, 32)}`;
}

function field(text: string): string {
  return `${text.length}:${text}`;
}
