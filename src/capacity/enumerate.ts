import type { Catalog } from "../core/decision/catalog.js";
import type { PreparedTicket } from "../core/decision/ticket.js";
import type { Template } from "../core/definition/template-types.js";
import { log2 } from "./slots.js";

/** How many distinct messages one template can produce on one ticket, counted by deciding every proposal. */
export type SampleMessages =
  | {
      readonly enumerated: true;
      readonly proposals: number;
      readonly messages: number;
      readonly bits: number;
      /** Localised templates: the distinct messages by the locale they are written in. */
      readonly byLocale?: Readonly<Record<string, number>>;
    }
  | { readonly enumerated: false; readonly proposals: number };

/** What the model may put in each chosen slot of a template for a ticket: every handle, key and "none". */
export function slotOptions(
  template: Template,
  ticket: PreparedTicket,
): { name: string; values: (string | null)[] }[] {
  const options: { name: string; values: (string | null)[] }[] = [];
  for (const compiled of template.resolveOrder) {
    const { slot } = compiled;
    if (slot.kind === "derived") continue;
    const values: (string | null)[] =
      slot.kind === "choice"
        ? [...compiled.keys.keys()]
        : [...(ticket.collections.get(slot.collection)?.handles ?? [])];
    if (slot.optional) values.push(null);
    options.push({ name: compiled.name, values });
  }
  return options;
}

/**
 * Decides every proposal the model could make for `template` on the sample ticket (each record of each
 * ref slot's collection, each key, and "none" for optional slots) and counts the distinct messages that
 * would go out or wait for approval. This is exact for the sample, where the per-slot counts are an upper
 * bound; it is skipped above `maxProposals`.
 */
export function sampleMessages(
  catalog: Pick<Catalog, "decide">,
  template: Template,
  ticket: PreparedTicket,
  maxProposals: number,
): SampleMessages {
  const options = slotOptions(template, ticket);
  const proposals = options.reduce((product, option) => product * option.values.length, 1);
  if (proposals > maxProposals) return { enumerated: false, proposals };
  const messages = new Set<string>();
  const slots: Record<string, string | null> = {};
  const visit = (index: number): void => {
    const option = options[index];
    if (option === undefined) {
      const decision = catalog.decide({ template: template.id, slots: { ...slots } }, ticket);
      const message = decision.outcome === "send" ? decision.message : decision.draft;
      if (message !== undefined)
        messages.add(
          JSON.stringify([message.to, message.subject, message.text, message.html, message.locale]),
        );
      return;
    }
    for (const value of option.values) {
      slots[option.name] = value;
      visit(index + 1);
    }
  };
  if (proposals > 0) visit(0);
  return {
    enumerated: true,
    proposals,
    messages: messages.size,
    bits: log2(messages.size),
    ...(template.locales === undefined ? {} : { byLocale: countByLocale(messages) }),
  };
}

/** The distinct messages by locale: the locale is read from records, so it adds no message the model chose. */
function countByLocale(messages: ReadonlySet<string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const message of messages) {
    const locale = String((JSON.parse(message) as unknown[])[4]);
    counts[locale] = (counts[locale] ?? 0) + 1;
  }
  return counts;
}
