import type { PreparedTicket } from "../decision/ticket.js";
import type { Template } from "../definition/template-types.js";

/**
 * One value the model may give a slot. "none" is `null` (an optional slot left empty); "left out" omits
 * the slot, which decide() fills when exactly one record fits it (or leaves empty when it is optional).
 */
export type SlotOption =
  | { readonly kind: "record"; readonly handle: string }
  | { readonly kind: "key"; readonly key: string }
  | { readonly kind: "none" }
  | { readonly kind: "left out" };

/**
 * One axis of the combinations: a slot the model fills, and every value it may give it. Axes are kept
 * generic (a name and its options) so another dimension, such as a locale, can join them later.
 */
export interface PreviewDimension {
  readonly slot: string;
  readonly kind: "ref" | "choice";
  /** Ref: the collection its records come from. */
  readonly collection: string | undefined;
  readonly optional: boolean;
  readonly options: readonly SlotOption[];
}

/** The proposal object the model would send, as decide() reads it. */
export interface PreviewProposal {
  readonly template: string;
  readonly slots: Readonly<Record<string, string | null>>;
}

/**
 * The slots the model fills in `template`, in the order decide() resolves them, each with every value
 * the model could give on this ticket: each record of a ref's collection (its `where` is decide()'s to
 * apply, so a record that does not fit shows up as an escalation), each key of a choice, "none" for an
 * optional slot, and "left out" for a ref. Any other handle or key is `record_not_found` or
 * `slot_rejected` whatever else is chosen, so it adds no message.
 */
export function dimensionsOf(template: Template, ticket: PreparedTicket): PreviewDimension[] {
  const dimensions: PreviewDimension[] = [];
  for (const compiled of template.resolveOrder) {
    const { slot } = compiled;
    if (slot.kind === "derived") continue;
    const options: SlotOption[] = [];
    if (slot.kind === "choice") {
      for (const key of compiled.keys.values()) options.push({ kind: "key", key });
      if (slot.optional) options.push({ kind: "none" });
    } else {
      for (const handle of ticket.collections.get(slot.collection)?.handles ?? [])
        options.push({ kind: "record", handle });
      if (slot.optional) options.push({ kind: "none" });
      options.push({ kind: "left out" });
    }
    dimensions.push({
      slot: compiled.name,
      kind: slot.kind,
      collection: slot.kind === "ref" ? slot.collection : undefined,
      optional: slot.optional,
      options,
    });
  }
  return dimensions;
}

/** How many combinations the dimensions span: the product of their option counts (1 for none). */
export function countCombinations(dimensions: readonly PreviewDimension[]): number {
  return dimensions.reduce((product, dimension) => product * dimension.options.length, 1);
}

/**
 * The proposal at position `index` of the combinations, counting with the last slot fastest. Decoding a
 * position builds one proposal and nothing else, so a caller can walk any window of a product far too
 * large to hold.
 */
export function proposalAt(
  templateId: string,
  dimensions: readonly PreviewDimension[],
  index: number,
): PreviewProposal {
  const slots: Record<string, string | null> = {};
  const picked: SlotOption[] = new Array(dimensions.length);
  let rest = index;
  for (let position = dimensions.length - 1; position >= 0; position--) {
    const { options } = dimensions[position] as PreviewDimension;
    picked[position] = options[rest % options.length] as SlotOption;
    rest = Math.floor(rest / options.length);
  }
  dimensions.forEach((dimension, position) => {
    const option = picked[position] as SlotOption;
    // Slot names are definition-checked identifiers starting with a letter: never `__proto__`.
    if (option.kind === "record") slots[dimension.slot] = option.handle;
    else if (option.kind === "key") slots[dimension.slot] = option.key;
    else if (option.kind === "none") slots[dimension.slot] = null;
  });
  return { template: templateId, slots };
}
