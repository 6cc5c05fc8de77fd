import { hash } from "node:crypto";
import type { Template } from "./template.js";

/** {@link idempotencyKey} with the template's slot names sorted once, at definition, instead of per call. */
export function keyOf(
  ticketId: string,
  template: Template,
  choices: Readonly<Record<string, string>>,
): string {
  return keyFrom(ticketId, template.id, template.keyOrder, choices);
}

/** The idempotency key of a send: ticket, template and the canonical choices (sorted by slot), hashed. */
export function idempotencyKey(
  ticketId: string,
  template: string,
  choices: Readonly<Record<string, string>>,
): string {
  return keyFrom(ticketId, template, Object.keys(choices).sort(), choices);
}

/** The key from the slot names in sorted order; a name without a choice is left out. */
function keyFrom(
  ticketId: string,
  template: string,
  names: readonly string[],
  choices: Readonly<Record<string, string>>,
): string {
  let canonical = `${ticketId}\u0000${template}`;
  for (const name of names) {
    const choice = choices[name];
    if (choice !== undefined) canonical += `\u0000${name}\u0001${choice}`;
  }
  return `fl_${hash("sha256", canonical, "hex").slice(0, 32)}`;
}
