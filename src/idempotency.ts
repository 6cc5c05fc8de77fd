import { hash } from "node:crypto";
import type { Template } from "./template.js";

/** {@link idempotencyKey} with the template's slot names sorted once, at definition, instead of per call. */
export function keyOf(
  ticketId: string,
  template: Template,
  choices: Readonly<Record<string, string>>,
): string {
  let canonical = `${ticketId}\u0000${template.id}`;
  for (const name of template.keyOrder) {
    const choice = choices[name];
    if (choice !== undefined) canonical += `\u0000${name}\u0001${choice}`;
  }
  return `fl_${hash("sha256", canonical, "hex").slice(0, 32)}`;
}

/** The idempotency key of a send: ticket, template and the canonical choices (sorted by slot), hashed. */
export function idempotencyKey(
  ticketId: string,
  template: string,
  choices: Readonly<Record<string, string>>,
): string {
  let canonical = `${ticketId}\u0000${template}`;
  for (const name of Object.keys(choices).sort()) canonical += `\u0000${name}\u0001${choices[name]}`;
  return `fl_${hash("sha256", canonical, "hex").slice(0, 32)}`;
}
