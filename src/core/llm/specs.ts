import type { Template } from "../definition/template-types.js";
import { sanitizeValue } from "../message/sanitize.js";
import type { SlotValues } from "./candidates.js";
import { escapeRegExp, type HandlePattern } from "./handle-pattern.js";
import { enumSchema, type JsonSchema, objectSchema, type ToolSpec } from "./json-schema.js";
import { noneValue, toolNames } from "./names.js";
import type { FillablePlan } from "./offer.js";

/**
 * The tool of one template: a parameter per slot the model fills, each an enum of this ticket's handles
 * or the slot's keys. Every text here is written in code (template and slot descriptions, choice
 * labels), and each is said here only: `describe()` lists the records and nothing the tools say.
 * Record labels stay in the prompt (`describe()`), because provider schemas are cached outside the
 * protections prompt data gets, and a label may hold a name.
 *
 * `open` names ref slots whose handles are not listed (too many for the provider's limits, or tools
 * shared by every ticket): they take any string of the collection's handle shape (`pattern`), and
 * decide() checks the handle.
 */
export function templateTool(
  plan: FillablePlan,
  pattern: HandlePattern,
  open: ReadonlySet<string> = new Set(),
  sayRoute = true,
): ToolSpec {
  const { template } = plan;
  const properties: { [name: string]: JsonSchema } = {};
  for (const values of plan.slots)
    properties[values.slot.name] = slotSchema(
      values,
      pattern,
      open.has(values.slot.name),
      // A required recipient takes "none" only in tools every ticket shares: decide() then fills it.
      values.slot === template.recipient && !values.slot.slot.optional
        ? ` "${noneValue}" when only one fits.`
        : ` "${noneValue}" leaves it out.`,
    );
  const description = oneLine(template.description);
  // A note the author's description already says would only cost tokens twice.
  const notes = [
    sayRoute ? `${template.channel} to the ${template.audience}` : "",
    template.approval === "human" ? "a person approves it first" : "",
  ].filter((part) => part !== "" && !description.toLowerCase().includes(part));
  const note = notes.length === 0 ? "" : ` (${notes.join("; ")}.)`;
  return {
    name: template.id,
    description: `${description}.${note}`,
    parameters: objectSchema(properties),
  };
}

/**
 * Whether tool descriptions say each template's channel and audience: only when the catalog's
 * templates differ in them, as otherwise the same words would repeat in every tool.
 */
export function routesDiffer(templates: readonly Template[]): boolean {
  return new Set(templates.map((template) => `${template.channel} ${template.audience}`)).size > 1;
}

function slotSchema(
  values: SlotValues,
  pattern: HandlePattern,
  open: boolean,
  noneMeans: string,
): JsonSchema {
  const { slot, name } = values.slot;
  const none = values.none ? [noneValue] : [];
  const leaveOut = values.none ? noneMeans : "";
  const about = slot.kind !== "derived" && slot.description ? `${oneLine(slot.description)}.` : "";
  if (slot.kind === "choice") {
    const meanings = values.values
      .map((key) => [key, oneLine(slot.choices[key] ?? key)] as const)
      .filter(([key, label]) => !sameWords(label, key))
      .map(([key, label]) => `${key} = ${label}`);
    const keys = meanings.length === 0 ? "" : ` ${meanings.join("; ")}.`;
    return enumSchema([...values.values, ...none], `${about}${keys}${leaveOut}`.trim());
  }
  if (slot.kind !== "ref") return { type: "string" };
  const what = about !== "" ? about : name === "to" ? "The recipient." : "";
  if (!open) return enumSchema([...values.values, ...none], `${what}${leaveOut}`.trim());
  const shape = pattern(slot.collection);
  return {
    type: "string",
    description: `${what || `A ${slot.collection} handle.`}${leaveOut}`.trim(),
    pattern: values.none ? `^(${shape.slice(1, -1)}|${escapeRegExp(noneValue)})$` : shape,
  };
}

/** The tool that hands the ticket to a person: one of the catalog's codes, and a note only people read. */
export function escalateTool(codes: readonly string[]): ToolSpec {
  return {
    name: toolNames.escalate,
    description: "Send nothing; a person takes the ticket. For when no template fits it.",
    parameters: objectSchema({
      code: enumSchema(codes, ""),
      note: { type: "string", description: "For the person only; never sent outside." },
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

/**
 * Whether a choice's label is its key written out ("express" for `express`, "Next day" for `next_day`):
 * then the enum already says it all. A label with any word more is kept whole, however close it is to
 * the key: "the annual inspection" tells `inspection` from a repair, and only the author knows which
 * words matter.
 */
function sameWords(label: string, key: string): boolean {
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word !== "")
      .join(" ");
  return words(label) === words(key);
}

// Descriptions are code, but a stray newline or control character would still garble a schema's text.
function oneLine(text: string): string {
  return sanitizeValue(text, { neutralize: false }).replace(/[.\s]+$/, "");
}
