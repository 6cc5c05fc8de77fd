import type { CollectionSchemas, RecordsDefinition } from "../definition/define-records.js";
import type { Template } from "../definition/template-types.js";
import { planOffer } from "../llm/offer.js";
import type { ToolsCache } from "../llm/stages.js";
import { sanitizeValue } from "../message/sanitize.js";
import type { PreparedTicket } from "./ticket.js";

const maxLabel = 120;

/**
 * Options of `catalog.describe()`.
 *
 * @example
 * import type { DescribeOptions } from "formletter/llm";
 * const options: DescribeOptions = { cache: "prefix" };
 */
export interface DescribeOptions {
  /**
   * The cache mode of the tools the text goes with. "prefix" adds the templates this ticket can fill,
   * which shared tools no longer say. @default "ticket"
   */
  readonly cache?: ToolsCache;
}

/**
 * The prompt text for one ticket: each record the model may choose, as `handle: label`, by collection.
 * It says only what the tools do not: templates, slots, keys and escalation codes are described in
 * the tools (or the structured-output schema), once. Only collections some slot can take are listed.
 * Labels are cleaned and cut so a record cannot forge a line of this text.
 */
export function describeTicket<S extends CollectionSchemas>(
  catalog: { readonly templates: readonly Template[]; readonly records: Pick<RecordsDefinition<S>, "label"> },
  ticket: PreparedTicket<S>,
  options: DescribeOptions = {},
): string {
  const choosable = new Set<string>();
  for (const template of catalog.templates) {
    for (const { slot } of template.resolveOrder) if (slot.kind === "ref") choosable.add(slot.collection);
  }
  const lines: string[] = ["Records (handle: label):"];
  for (const [collection, prepared] of ticket.collections) {
    if (prepared.records.length === 0 || !choosable.has(collection)) continue;
    lines.push(`${collection}:`);
    prepared.records.forEach((record, index) => {
      lines.push(
        `- ${prepared.handles[index]}: ${oneLine(catalog.records.label(collection, record, index))}`,
      );
    });
  }
  if (options.cache === "prefix") {
    const { plans } = planOffer(catalog.templates, ticket);
    const ids = plans.map((plan) => plan.template.id);
    lines.push(`Templates these records can fill: ${ids.length === 0 ? "none; escalate" : ids.join(", ")}`);
  }
  return lines.join("\n");
}

function oneLine(text: string, max = maxLabel): string {
  const clean = sanitizeValue(text, { neutralize: false });
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
