/**
 * The names formletter gives the tools it adds around the templates. `defineTemplate` refuses them as
 * template ids, so a call by name always means one thing.
 *
 * @example
 * import { toolNames } from "formletter/llm";
 * if (call.name === toolNames.escalate) metrics.increment("escalated_by_model");
 */
export const toolNames = {
  /** The tool that hands the ticket to a person, with one of the catalog's escalation codes. */
  escalate: "escalate_to_human",
  /** Stage one of two: the tool that picks a template when the tools do not fit in one request. */
  choose: "choose_template",
  /** The name of the structured-output schema; its output is parsed as a call of this name. */
  proposal: "formletter_proposal",
} as const;

/** The reserved names, for look-ups. */
export const reservedNames: ReadonlySet<string> = new Set(Object.values(toolNames));

/**
 * What the model gives for an optional slot it leaves empty; `parseToolCall` turns it into `null`. Not
 * `null` in the schema: a nullable field is a union type, which Anthropic's strict mode counts against
 * a small budget (16 a request). The parentheses keep it apart from every choice key and handle (both
 * are `[a-z0-9_-]` only).
 *
 * @example
 * import { noneValue, parseToolCall } from "formletter/llm";
 * parseToolCall("delivery_delay", { order: "o-3f2a", shipment: noneValue }); // slots.shipment === null
 */
export const noneValue = "(none)";
