import type { PreparedCollection, PreparedTicket } from "../decision/ticket.js";
import type { AnyRecord } from "../definition/define-records.js";
import { derivedValue, joinKeyOf, passes, whereContext } from "../definition/slot-rules.js";
import type { SlotContext } from "../definition/slots.js";
import type { CompiledSlot, Template } from "../definition/template-types.js";

/** What the model may give for one slot on one ticket. */
export interface SlotValues {
  readonly slot: CompiledSlot;
  /** Handles (ref) or keys (choice), in record or declaration order. */
  readonly values: readonly string[];
  /** Leaving the slot empty takes part in at least one complete choice: the schema offers "none". */
  readonly none: boolean;
}

/** Why a template is left out of a ticket's tools. */
export type OmissionReason = "no_candidates" | "no_value";

/** A template as it can be offered on one ticket: its slots' values, or why it cannot be filled. */
export type TemplatePlan =
  | {
      readonly fillable: true;
      readonly template: Template;
      /** The slots the model fills, in decide()'s order; "to" only when the records leave a choice. */
      readonly slots: readonly SlotValues[];
      /** The combinations were too many to check: ref slots list every record of their collection. */
      readonly widened: boolean;
    }
  | {
      readonly fillable: false;
      readonly template: Template;
      readonly reason: OmissionReason;
      /** The first slot no combination could fill. */
      readonly slot?: string;
    };

/**
 * Record checks one plan may spend before it stops and lists every record instead: a ticket with
 * hundreds of records per collection would otherwise cost a multiple of a decision per tool call.
 */
const planBudget = 200_000;

type Value = AnyRecord | string | undefined;
interface Option {
  readonly value: Value;
  /** The handle or key the model would give; undefined for "none" and derived slots. */
  readonly given: string | undefined;
}
const none: Option = { value: undefined, given: undefined };

/**
 * Works out, for one template and one ticket, what each slot may take. A slot's candidates can depend
 * on earlier slots (`match` joins, `where` reading `slots`, derived values), so the plan walks every
 * combination decide() would accept, in decide()'s order, and lists each handle or key that takes part
 * in at least one complete combination: every record that fits for SOME valid choice of the others.
 * A schema cannot express "item must belong to the chosen order", so a listed value may still be
 * rejected in combination; decide() checks every choice again, and its hint names the valid ones.
 */
export function planTemplate(template: Template, ticket: PreparedTicket): TemplatePlan {
  const order = template.resolveOrder;
  const count = order.length;
  const earlier: Record<string, Value> = {};
  for (const compiled of order) earlier[compiled.name] = undefined;
  const context: SlotContext = { ticketId: ticket.ticketId, records: ticket.view, slots: earlier };
  const dependents = order.map((_, index) => hasDependents(order, index));
  const indexes = order.map((compiled) => joinIndex(compiled, ticket));

  const used = order.map(() => new Set<string>());
  const noneUsed = order.map(() => false);
  const reached = order.map(() => false);
  const filled = order.map(() => false);
  const path: (string | undefined)[] = new Array(count);
  let recipientSpread = 0;
  let work = 0;
  let exhausted = false;

  const optionsAt = (index: number): Option[] => {
    const compiled = order[index] as CompiledSlot;
    const { slot } = compiled;
    if (slot.kind === "derived") {
      const derived = derivedValue(slot, template, ticket, context);
      if (typeof derived === "string") return [];
      return derived.value === undefined ? [none] : [{ value: derived.value, given: undefined }];
    }
    if (slot.kind === "choice") {
      const keys = [...compiled.keys.values()].map((key) => ({ value: key, given: key }));
      return slot.optional ? [...keys, none] : keys;
    }
    const collection = ticket.collections.get(slot.collection);
    const pool = indexes[index]?.(earlier) ?? collection?.records ?? [];
    work += pool.length;
    const fits: Option[] = [];
    const view = whereContext(compiled, template, ticket, context);
    for (const record of pool) {
      if (passes(compiled, record, context, view))
        fits.push({ value: record, given: handleOf(collection, record) });
    }
    if (compiled === template.recipient) recipientSpread = Math.max(recipientSpread, fits.length);
    return slot.optional ? [...fits, none] : fits;
  };

  const visit = (index: number): boolean => {
    if (exhausted) return false;
    if (index === count) {
      path.forEach((given, at) => {
        if (given === undefined) noneUsed[at] = true;
        else used[at]?.add(given);
      });
      return true;
    }
    if (++work > planBudget) {
      exhausted = true;
      return false;
    }
    reached[index] = true;
    const compiled = order[index] as CompiledSlot;
    const options = optionsAt(index);
    if (options.some((option) => option !== none)) filled[index] = true;
    // Nothing later reads this slot: every option leads to the same rest, so walk it once.
    const walked = dependents[index] ? options : options.slice(0, 1);
    let complete = false;
    for (const option of walked) {
      earlier[compiled.name] = option.value;
      path[index] = option.given;
      if (visit(index + 1)) {
        complete = true;
        if (walked !== options) for (const other of options) record(index, other);
      }
      if (exhausted) break;
    }
    earlier[compiled.name] = undefined;
    path[index] = undefined;
    return complete;
  };
  const record = (index: number, option: Option) => {
    if (option.given === undefined) noneUsed[index] = true;
    else used[index]?.add(option.given);
  };

  const complete = visit(0);
  if (exhausted) return widenedPlan(template, ticket);
  if (!complete) {
    const at = order.find((compiled, index) => reached[index] && !filled[index] && !compiled.slot.optional);
    // No single slot is at fault when each has values on some paths but no path completes.
    if (at === undefined) return { fillable: false, template, reason: "no_candidates" };
    const reason = at.slot.kind === "derived" ? "no_value" : "no_candidates";
    return { fillable: false, template, reason, slot: at.name };
  }
  const slots: SlotValues[] = [];
  order.forEach((compiled, index) => {
    if (compiled.slot.kind === "derived") return;
    // decide() fills a recipient that has exactly one candidate for every choice of the other slots.
    if (compiled === template.recipient && recipientSpread <= 1) return;
    const chosen = used[index] ?? new Set<string>();
    const declared =
      compiled.slot.kind === "choice"
        ? [...compiled.keys.values()]
        : (ticket.collections.get(compiled.slot.collection)?.handles ?? []);
    slots.push({
      slot: compiled,
      values: declared.filter((value) => chosen.has(value)),
      none: compiled.slot.optional && (noneUsed[index] ?? false),
    });
  });
  return { fillable: true, template, slots, widened: false };
}

/**
 * The fallback when combinations are too many to walk: every record of each ref slot's collection,
 * every key, "none" for optional slots and the recipient as a choice. Wider, never narrower, than
 * what decide() accepts, and decide() checks every choice.
 */
function widenedPlan(template: Template, ticket: PreparedTicket): TemplatePlan {
  const slots: SlotValues[] = [];
  for (const compiled of template.resolveOrder) {
    const { slot } = compiled;
    if (slot.kind === "derived") continue;
    const values =
      slot.kind === "choice"
        ? [...compiled.keys.values()]
        : (ticket.collections.get(slot.collection)?.handles ?? []);
    if (values.length === 0 && !slot.optional) {
      return { fillable: false, template, reason: "no_candidates", slot: compiled.name };
    }
    slots.push({ slot: compiled, values, none: slot.optional });
  }
  return { fillable: true, template, slots, widened: true };
}

/** Whether a later slot may read slot `index`: a join on it, a `where`, or a derived value. */
function hasDependents(order: readonly CompiledSlot[], index: number): boolean {
  const name = order[index]?.name;
  return order.slice(index + 1).some(({ slot, joins }) => {
    if (slot.kind === "derived") return true;
    if (slot.kind !== "ref") return false;
    return slot.where !== undefined || joins.some((join) => join.slot === name);
  });
}

/**
 * For a ref slot with `match` joins, the records whose first join field equals the earlier record's
 * value, looked up instead of scanned (by {@link joinKeyOf}, so a number finds its decimal string); `passes`
 * still checks every join with `sameKey`.
 */
function joinIndex(
  compiled: CompiledSlot,
  ticket: PreparedTicket,
): ((earlier: Readonly<Record<string, Value>>) => readonly AnyRecord[]) | undefined {
  const { slot, joins } = compiled;
  const join = joins[0];
  if (slot.kind !== "ref" || join === undefined) return undefined;
  const byValue = new Map<unknown, AnyRecord[]>();
  for (const record of ticket.collections.get(slot.collection)?.records ?? []) {
    if (!Object.hasOwn(record, join.field)) continue;
    const key = joinKeyOf(record[join.field]);
    const list = byValue.get(key);
    if (list === undefined) byValue.set(key, [record]);
    else list.push(record);
  }
  return (earlier) => {
    const other = earlier[join.slot];
    if (typeof other !== "object" || !Object.hasOwn(other, join.otherField)) return [];
    return byValue.get(joinKeyOf(other[join.otherField])) ?? [];
  };
}

function handleOf(collection: PreparedCollection | undefined, record: AnyRecord): string | undefined {
  return collection?.handleOf.get(record);
}
