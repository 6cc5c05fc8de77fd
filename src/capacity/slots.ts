import type { CompiledSlot } from "../core/definition/template-types.js";

/** The choices the model has for one slot of a template. */
export interface SlotCapacity {
  readonly slot: string;
  readonly kind: "ref" | "choice" | "derived";
  /** Where the choices come from: the collection, "N keys", or "computed in code". */
  readonly from: string;
  readonly optional: boolean;
  /** How many values the model may choose between (leaving an optional slot out counts as one). */
  readonly candidates: number;
  /** log2(candidates): what the choice of this slot can encode. 0 when there is one candidate or none. */
  readonly bits: number;
}

/**
 * The choices of one slot. A ref may be filled by any record of its collection in the ticket (its
 * `where` and `match` only narrow that, so this is an upper bound); a choice by any key; a derived slot
 * by nothing the model says.
 */
export function slotCapacity(
  compiled: CompiledSlot,
  recordsOf: (collection: string) => number,
): SlotCapacity {
  const { slot, name } = compiled;
  const optional = slot.optional;
  const extra = optional ? 1 : 0;
  switch (slot.kind) {
    case "derived":
      return { slot: name, kind: "derived", from: "computed in code", optional, candidates: 1, bits: 0 };
    case "choice": {
      const candidates = compiled.keys.size + extra;
      return {
        slot: name,
        kind: "choice",
        from: `${compiled.keys.size} keys`,
        optional,
        candidates,
        bits: log2(candidates),
      };
    }
    case "ref": {
      const candidates = recordsOf(slot.collection) + extra;
      return { slot: name, kind: "ref", from: slot.collection, optional, candidates, bits: log2(candidates) };
    }
  }
}

/** log2 of a count of choices; one choice (or none) carries no information. */
export function log2(count: number): number {
  return count <= 1 ? 0 : Math.log2(count);
}
