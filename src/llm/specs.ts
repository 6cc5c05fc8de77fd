import { sanitizeValue } from "../sanitize.js";
import type { Template } from "../template.js";
import type { SlotValues } from "./candidates.js";
import { noneValue, toolNames } from "./names.js";
import type { FillablePlan } from "./offer.js";
import { enumSchema, type JsonSchema, objectSchema, type ToolSpec } from "./schema.js";

/**
 * The tool of one template: a parameter per slot the model fills, each an enum of this ticket's handles
 * or the slot's keys. Every text here is written in code (template and slot descriptions, choice
 * labels); record labels stay in the prompt (`describe()`), because provider schemas are cached outside
 * the protections prompt data gets, and a label may hold a name.
 *
 * `open` names slots whose handles are too many for the provider's limits: they take any string,
 * described as a handle from the records list, and decide() checks it.
 */
export function templateTool(plan: FillablePlan, open: ReadonlySet<string> = new Set()): ToolSpec {
  const { template } = plan;
  const properties: { [name: string]: JsonSchema } = {};
  for (const values of plan.slots)
    properties[values.slot.name] = slotSchema(values, open.has(values.slot.name));
  const fixed = !plan.slots.some((values) => values.slot === template.recipient);
  const description = [
    `${oneLine(template.description)}.`,
    `Sends one ${template.channel} message to the ${template.audience}, written from the records and keys you choose;`,
    fixed ? "the recipient follows from the records." : "choose the recipient in `to`.",
    template.approval === "human" ? "A person approves it before it is sent." : "",
  ]
    .filter((part) => part !== "")
    .join(" ");
  return { name: template.id, description, parameters: objectSchema(properties) };
}

function slotSchema(values: SlotValues, open: boolean): JsonSchema {
  const { slot, name } = values.slot;
  const none = values.none ? [noneValue] : [];
  const leaveOut = values.none ? ` Give "${noneValue}" to leave it out.` : "";
  if (slot.kind === "choice") {
    const about = slot.description ? `${oneLine(slot.description)}. ` : "";
    const keys = values.values.map((key) => `${key} = ${oneLine(slot.choices[key] ?? key)}`).join("; ");
    return enumSchema([...values.values, ...none], `${about}One key: ${keys}.${leaveOut}`);
  }
  if (slot.kind !== "ref") return { type: "string" };
  const about = slot.description ? oneLine(slot.description) : name === "to" ? "The recipient" : name;
  const what = `${about}. The handle of one of this ticket's ${slot.collection} records (see the records list).${leaveOut}`;
  if (open) {
    return { type: "string", description: `${what} (Too many to list here; copy the handle exactly.)` };
  }
  return enumSchema([...values.values, ...none], what);
}

/** The tool that hands the ticket to a person: one of the catalog's codes, and a note only people read. */
export function escalateTool(codes: readonly string[]): ToolSpec {
  return {
    name: toolNames.escalate,
    description:
      "Send nothing and hand the ticket to a person: when no template fits, a needed record is missing, " +
      "or the ticket asks for something the templates do not do.",
    parameters: objectSchema({
      code: enumSchema(codes, "Why the ticket needs a person."),
      note: {
        type: "string",
        description: "A short note for the person who takes over. It is never sent to anyone outside.",
      },
    }),
  };
}

/** Stage one of two: pick the template whose slots are asked next. */
export function chooseTool(templates: readonly Template[]): ToolSpec {
  const list = templates.map((template) => `${template.id}: ${oneLine(template.description)}`).join("; ");
  return {
    name: toolNames.choose,
    description:
      "Step 1 of 2: choose the message template that fits this ticket; its slots are asked in step 2. " +
      `Templates: ${list}. If none fits, call ${toolNames.escalate} instead.`,
    parameters: objectSchema({
      template: enumSchema(
        templates.map((template) => template.id),
        "The template id.",
      ),
    }),
  };
}

// Descriptions are code, but a stray newline or control character would still garble a schema's text.
function oneLine(text: string): string {
  return sanitizeValue(text, { neutralize: false }).replace(/[.\s]+$/, "");
}
