import type { Template } from "./template-types.js";

// The templates defineTemplate made. Module-private, as prepared tickets are: a frozen copy of a template
// (`Object.freeze({ ...payout, approval: undefined })`) has every property a check could read, so only
// the identity of the object defineTemplate returned can tell that it went through the checks.
const definedTemplates = new WeakSet<object>();

/** Records `template` as made by defineTemplate; returns it. */
export function markDefined(template: Template): Template {
  definedTemplates.add(template);
  return template;
}

/** True for the objects defineTemplate returned in this copy of formletter, and for nothing else. */
export function isDefinedTemplate(value: unknown): value is Template {
  return typeof value === "object" && value !== null && definedTemplates.has(value);
}
