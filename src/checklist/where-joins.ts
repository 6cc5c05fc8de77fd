import type { PreparedTicket } from "../core/decision/ticket.js";
import type { AnyRecord } from "../core/definition/define-records.js";
import { derivedValue, passes, whereContext } from "../core/definition/slot-rules.js";
import type { EarlierSlots, SlotContext } from "../core/definition/slots.js";
import type { CompiledSlot, Template } from "../core/definition/template-types.js";
import type { SampleProposal } from "./sample-proposals.js";

/**
 * A `where` is code: what it compares cannot be read from it. It joins its slot's record (the
 * recipient's, or any other ref's) to an earlier ref slot's record when its verdict follows the relation
 * between the two records' values and nothing else. That is tested on records the slot accepted on the
 * sample, three ways, with every string and number of a record replaced by a value no record holds
 * (booleans and nulls are kept):
 *
 * 1. the other record replaced: the slot's record must now be refused (the `where` reads the other one);
 * 2. the slot's record replaced: it must now be refused (the `where` reads it);
 * 3. both replaced by one mapping, so values equal before are equal after: it must be accepted again
 *    (it compares the two, rather than testing each against a literal).
 *
 * A `where` that ignores its context fails (1); one that filters the other record by a literal
 * ("order is open") fails (2); one that filters both separately fails (3). Each is then no join.
 */

/** Proposals probed per template: enough to see a `where` on several combinations, cheap on any sample. */
const maxProbed = 200;

/** Replaces every string and number of a value, at every depth, through one mapping shared by its calls. */
class Replacer {
  private readonly strings = new Map<string, string>();
  private readonly numbers = new Map<number, number>();

  of(value: unknown): unknown {
    if (typeof value === "string") {
      let replaced = this.strings.get(value);
      if (replaced === undefined) {
        replaced = `zq-elsewhere-${this.strings.size}-xv`;
        this.strings.set(value, replaced);
      }
      return replaced;
    }
    if (typeof value === "number") {
      let replaced = this.numbers.get(value);
      if (replaced === undefined) {
        // Far from any amount, count or id a record holds, and distinct for each value.
        replaced = 987_654_321.25 + this.numbers.size;
        this.numbers.set(value, replaced);
      }
      return replaced;
    }
    if (value instanceof Date) return new Date(Date.UTC(1901, 0, 1) + (this.of(value.getTime()) as number));
    if (Array.isArray(value)) return value.map((entry) => this.of(entry));
    if (typeof value === "object" && value !== null) {
      const copy: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries(value)) copy[key] = this.of(entry);
      return copy;
    }
    return value;
  }

  record(record: AnyRecord): AnyRecord {
    return this.of(record) as AnyRecord;
  }
}

/** The values decide() gives the slots before `before`, for one proposal of the sample. */
function earlierSlots(
  template: Template,
  ticket: PreparedTicket,
  proposal: SampleProposal,
  before: CompiledSlot,
): Record<string, AnyRecord | string | undefined> {
  const earlier: Record<string, AnyRecord | string | undefined> = {};
  for (const compiled of template.resolveOrder) earlier[compiled.name] = undefined;
  const context: SlotContext = { ticketId: ticket.ticketId, records: ticket.view, slots: earlier };
  for (const compiled of template.resolveOrder.slice(0, template.resolveOrder.indexOf(before))) {
    const { slot } = compiled;
    const given = Object.hasOwn(proposal.slots, compiled.name) ? proposal.slots[compiled.name] : null;
    if (slot.kind === "ref") {
      earlier[compiled.name] =
        typeof given === "string"
          ? ticket.collections.get(slot.collection)?.byHandle.get(given.toLowerCase())
          : undefined;
    } else if (slot.kind === "choice") {
      earlier[compiled.name] = typeof given === "string" ? compiled.keys.get(given.toLowerCase()) : undefined;
    } else {
      const derived = derivedValue(slot, template, ticket, context);
      earlier[compiled.name] = typeof derived === "string" ? undefined : derived.value;
    }
  }
  return earlier;
}

/**
 * The earlier ref slots the `where` of ref slot `target` (the recipient, or any other) joins it to on
 * every probed sending proposal of the sample (see the three tests above); empty when it has no
 * `where`, or joins none.
 */
export function whereJoins(
  template: Template,
  ticket: PreparedTicket,
  sending: readonly SampleProposal[],
  target: CompiledSlot,
): string[] {
  const { slot } = target;
  if (slot.kind !== "ref" || slot.where === undefined || sending.length === 0) return [];
  const pool = ticket.collections.get(slot.collection);
  /**
   * Whether the slot's rule accepts `record` with `slots`, on the ticket with the replaced records
   * added to their collections: code that looks an earlier slot's record up among the ticket's records
   * (`chosenRecord`) finds the replaced one as it would a real one.
   */
  const accepts = (
    record: AnyRecord,
    slots: EarlierSlots,
    added: readonly [string, AnyRecord][],
  ): boolean => {
    const view: Record<string, readonly AnyRecord[]> = {
      ...(ticket.view as Record<string, readonly AnyRecord[]>),
    };
    for (const [collection, extra] of added) view[collection] = [...(view[collection] ?? []), extra];
    const widened = { ...ticket, view: view as PreparedTicket["view"] };
    const context: SlotContext = { ticketId: ticket.ticketId, records: widened.view, slots };
    return passes(target, record, context, whereContext(target, template, widened, context));
  };
  // Per earlier slot: on how many proposals it held a record, and on how many the `where` joined to it.
  const probed = new Map<string, { held: number; joined: number }>();
  for (const proposal of sending.slice(0, maxProbed)) {
    const handle = Object.hasOwn(proposal.slots, target.name) ? proposal.slots[target.name] : null;
    const record = typeof handle === "string" ? pool?.byHandle.get(handle.toLowerCase()) : undefined;
    // An optional slot left out on this proposal: nothing to probe here.
    if (record === undefined) continue;
    const earlier = earlierSlots(template, ticket, proposal, target);
    for (const compiled of template.resolveOrder.slice(0, template.resolveOrder.indexOf(target))) {
      const other = earlier[compiled.name];
      if (compiled.slot.kind !== "ref" || typeof other !== "object" || other === null) continue;
      const { collection } = compiled.slot;
      const foreignOther = new Replacer().record(other);
      const otherReplaced = accepts(record, { ...earlier, [compiled.name]: foreignOther }, [
        [collection, foreignOther],
      ]);
      const foreignSelf = new Replacer().record(record);
      const selfReplaced = accepts(foreignSelf, earlier, [[slot.collection, foreignSelf]]);
      const both = new Replacer();
      const [self, mapped] = [both.record(record), both.record(other)];
      const bothReplaced = accepts(self, { ...earlier, [compiled.name]: mapped }, [
        [slot.collection, self],
        [collection, mapped],
      ]);
      const counts = probed.get(compiled.name) ?? { held: 0, joined: 0 };
      counts.held += 1;
      if (!otherReplaced && !selfReplaced && bothReplaced) counts.joined += 1;
      probed.set(compiled.name, counts);
    }
  }
  // A join holds on every proposal where the other slot held a record, not on some of them.
  return [...probed].filter(([, counts]) => counts.joined === counts.held).map(([name]) => name);
}
