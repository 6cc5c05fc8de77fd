import { type CapacityCatalog, catalogCapacity } from "../capacity/capacity.js";
import { wilsonInterval } from "../metrics/wilson.js";

/** One catalog's escalation rate over a history, with its 95% Wilson interval (fractions 0 to 1). */
export interface SideRate {
  readonly decided: number;
  readonly escalated: number;
  readonly rate: number;
  readonly low: number;
  readonly high: number;
}

/** The escalation rates of both catalogs over the same history, and head's minus base's. */
export interface RateComparison {
  readonly base: SideRate;
  readonly head: SideRate;
  /** head.rate − base.rate, in percentage points. */
  readonly points: number;
}

/** Counts one side's decisions. */
export class RateCounter {
  decided = 0;
  escalated = 0;

  add(outcome: "send" | "escalate"): void {
    this.decided += 1;
    if (outcome === "escalate") this.escalated += 1;
  }

  rate(): SideRate {
    const { low, high } = wilsonInterval(this.escalated, this.decided);
    return {
      decided: this.decided,
      escalated: this.escalated,
      rate: this.decided === 0 ? 0 : this.escalated / this.decided,
      low,
      high,
    };
  }
}

/** Both sides' rates and the difference in points. */
export function compareRates(base: RateCounter, head: RateCounter): RateComparison {
  const before = base.rate();
  const after = head.rate();
  return { base: before, head: after, points: (after.rate - before.rate) * 100 };
}

/** A template's bits per message before and after; undefined on the side it is not on. */
export interface CapacityChange {
  readonly id: string;
  readonly base: number | undefined;
  readonly head: number | undefined;
}

/**
 * Bits a steered model controls per message of each template, in both catalogs, with every ref slot
 * assumed to choose among the records definition's `maxPerCollection` (the most a ticket may hold): the
 * figure `formletter capacity` gives without a sample. Ordered by template id.
 */
export function compareCapacity(base: CapacityCatalog, head: CapacityCatalog): CapacityChange[] {
  const bits = (catalog: CapacityCatalog) =>
    new Map(catalogCapacity(catalog).templates.map((template) => [template.id, template.bitsPerMessage]));
  const before = bits(base);
  const after = bits(head);
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return ids.map((id) => ({ id, base: before.get(id), head: after.get(id) }));
}
