import type { Format } from "../message/format.js";
import type { AnyRecord, CollectionSchemas, RecordOf, TicketView } from "./record-types.js";

/** The values of the slots resolved before this one, by slot name: a ref's record or a choice's key. */
export type EarlierSlots = Readonly<Record<string, AnyRecord | string | undefined>>;

/** What `where` and `derived` callbacks receive besides the record. */
export interface SlotContext<S extends CollectionSchemas = CollectionSchemas> {
  readonly ticketId: string;
  /** All of this ticket's validated records, typed per collection. */
  readonly records: TicketView<S>;
  /** Slots declared earlier in the template, already resolved. */
  readonly slots: EarlierSlots;
}

type FieldOf<R> = Extract<keyof R, string>;

/** One field a ref slot shows, with its format. */
export interface ShownField<R = AnyRecord> {
  readonly field: FieldOf<R>;
  /** @default format.text(), or format.email() for a z.email() field */
  readonly as?: Format;
  /** Longest formatted value accepted; longer is `slot_rejected`, never truncated. @default 200 (2,000 multi-line) */
  readonly maxLength?: number;
}

/** Options of `slot.ref`. */
export interface RefOptions<R, S extends CollectionSchemas> {
  /**
   * What the message shows of the chosen record: one field (`{{slot}}`), or named fields (`{{slot.name}}`).
   */
  readonly show: FieldOf<R> | { readonly [name: string]: FieldOf<R> | ShownField<R> };
  /** Format of the single shown field. @default format.text() */
  readonly as?: Format;
  /** Longest formatted value of the single shown field. @default 200 */
  readonly maxLength?: number;
  /**
   * Joins to earlier slots: `{ id: "order.sellerId" }` accepts only the record whose `id` equals the
   * `sellerId` of the record chosen for slot `order`. Checked when the template is defined.
   */
  readonly match?: { readonly [F in FieldOf<R>]?: string };
  /** Which of this ticket's records may fill the slot; may read earlier slots. A throw counts as false. */
  readonly where?: (record: R, context: SlotContext<S>) => boolean;
  /** The model may leave the slot out (`null`); the template shows it inside `{{#slot}}…{{/slot}}`. */
  readonly optional?: boolean;
  /** Shown to the model in tool schemas and `describe()`. */
  readonly description?: string;
}

/** A slot the model fills with the handle of one of this ticket's records. */
export interface RefSlot<C extends string = string> {
  readonly kind: "ref";
  readonly collection: C;
  readonly show: string | Readonly<Record<string, string | ShownField>>;
  readonly as?: Format;
  readonly maxLength?: number;
  readonly optional: boolean;
  readonly description?: string;
  readonly match?: Readonly<Record<string, string>>;
  // Method syntax: a slot typed for one collection is assignable to a template's slot map.
  where?(record: AnyRecord, context: SlotContext): boolean;
}

/** A slot the model fills with one key of a fixed list; the message shows the key's label. */
export interface ChoiceSlot<K extends string = string> {
  readonly kind: "choice";
  readonly choices: Readonly<Record<K, string>>;
  readonly optional: boolean;
  readonly description?: string;
}

/** A slot computed in code from the ticket's records and earlier slots; the model gives nothing. */
export interface DerivedSlot {
  readonly kind: "derived";
  readonly as?: Format;
  readonly maxLength?: number;
  readonly optional: boolean;
  compute(context: SlotContext): unknown;
}

/** Any slot. There is deliberately no free-text kind: the model can only choose. */
export type Slot = RefSlot | ChoiceSlot | DerivedSlot;

/** Options of `slot.choice`. */
export interface ChoiceOptions {
  readonly optional?: boolean;
  readonly description?: string;
}

/** Options of `slot.derived`. */
export interface DerivedOptions {
  /** @default format.text() */
  readonly as?: Format;
  readonly maxLength?: number;
  /** A missing value hides `{{#slot}}` sections instead of escalating. */
  readonly optional?: boolean;
}

/** The slot constructors, typed by a records definition (`records.slot`). */
export interface SlotBuilder<S extends CollectionSchemas> {
  /**
   * A record of `collection`, chosen by the model through its handle.
   *
   * @example
   * const { slot } = records;
   * slot.ref("orders", { show: "number", where: (order) => order.status !== "shipped" });
   */
  ref<C extends keyof S & string>(collection: C, options: RefOptions<RecordOf<S, C>, S>): RefSlot<C>;
  /**
   * One key of a fixed list, chosen by the model; the message shows the label written here.
   *
   * @example
   * slot.choice({ crushed: "the parcel was crushed", wet: "the parcel was wet" });
   */
  choice<const K extends string>(
    choices: Readonly<Record<K, string>>,
    options?: ChoiceOptions,
  ): ChoiceSlot<K>;
  /**
   * A value computed in code; the model supplies nothing.
   *
   * @example
   * slot.derived(({ records }) => records.orders.length, { as: format.number() });
   */
  derived(compute: (context: SlotContext<S>) => unknown, options?: DerivedOptions): DerivedSlot;
}

/** Builds the slot constructors; validation happens in `defineTemplate`, where the template id is known. */
export function createSlotBuilder<S extends CollectionSchemas>(): SlotBuilder<S> {
  return {
    ref: (collection, options) =>
      ({ kind: "ref", ...options, optional: options.optional === true, collection }) as RefSlot<
        typeof collection
      >,
    choice: (choices, options = {}) => ({
      kind: "choice",
      ...options,
      choices,
      optional: options.optional === true,
    }),
    derived: (compute, options = {}) =>
      ({ kind: "derived", ...options, optional: options.optional === true, compute }) as DerivedSlot,
  };
}

/**
 * The record chosen for an earlier ref slot, typed by its collection — or undefined when that slot has no
 * record of `collection` (not chosen yet, optional and left out, or a slot of another collection). For
 * `where` and `derived` callbacks, where earlier slots otherwise arrive untyped.
 *
 * @example
 * import { chosenRecord } from "formletter";
 * const shopName = slot.derived((context) => {
 *   const order = chosenRecord(context, "order", "orders");
 *   return context.records.sellers.find((seller) => seller.id === order?.sellerId)?.shopName;
 * });
 */
export function chosenRecord<S extends CollectionSchemas, C extends keyof S & string>(
  context: SlotContext<S>,
  slot: string,
  collection: C,
): RecordOf<S, C> | undefined {
  const value = Object.hasOwn(context.slots, slot) ? context.slots[slot] : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  // The ticket's own validated record (or, in a derived slot, the audience's view of it), never a look-alike.
  const records = (context.records as Readonly<Record<string, readonly AnyRecord[]>>)[collection] ?? [];
  return records.find((record) => record === value || record.id === value.id) as RecordOf<S, C> | undefined;
}
