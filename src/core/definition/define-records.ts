import { DefinitionError } from "../errors.js";
import { type LabelNode, labelsWithin, labelTree } from "./label-tree.js";
import { carryLabelsDown } from "./labels.js";
import type { AnyRecord, CollectionSchemas, RecordOf } from "./record-types.js";
import { SchemaWalk } from "./schema-walk.js";
import { createSlotBuilder, type SlotBuilder } from "./slots.js";

export type {
  AnyRecord,
  CollectionSchema,
  CollectionSchemas,
  RecordOf,
  TicketRecords,
  TicketView,
} from "./record-types.js";

/** Options of {@link defineRecords}. */
export interface RecordsOptions<S extends CollectionSchemas> {
  /**
   * What the model is shown for each record next to its handle, built in code, e.g.
   * `(order) => \`order ${order.number}, placed ${order.placedOn}\``. Never the raw ID.
   * @default `"<collection> record <n>"`
   */
  readonly labels?: { readonly [C in keyof S]?: (record: RecordOf<S, C>) => string };
  /** Most records one collection of one ticket may hold; more is `records_invalid`. @default 500 */
  readonly maxPerCollection?: number;
}

/** A records definition: the collections, their labels and the typed slot builder. */
export interface RecordsDefinition<S extends CollectionSchemas = CollectionSchemas> {
  readonly collections: S;
  readonly names: readonly (keyof S & string)[];
  /** Builds slots typed by these collections: `slot.ref("orders", { show: "number" })`. */
  readonly slot: SlotBuilder<S>;
  /** The label the model is shown for a record of `collection`. */
  readonly label: (collection: string, record: AnyRecord, index: number) => string;
  readonly maxPerCollection: number;
  /** Where each collection's field labels sit, read through every zod composition once, here. */
  readonly labelTrees: ReadonlyMap<string, LabelNode>;
}

const collectionName = /^[a-z][a-z0-9_]{0,39}$/;

/**
 * Declares the collections a ticket's records come in. Each is a zod object with a string `id`;
 * a loader's output is validated against them before any slot reads it.
 *
 * @example
 * import { defineRecords } from "formletter";
 * import { z } from "zod";
 * const records = defineRecords(
 *   { orders: z.object({ id: z.string(), number: z.string() }) },
 *   { labels: { orders: (order) => `order ${order.number}` } },
 * );
 */
export function defineRecords<const S extends CollectionSchemas>(
  collections: S,
  options: RecordsOptions<S> = {},
): RecordsDefinition<S> {
  if (typeof collections !== "object" || collections === null) {
    throw new DefinitionError(
      "records_definition_invalid",
      "defineRecords: pass an object of zod object schemas",
    );
  }
  let schemas: Map<string, unknown>;
  try {
    schemas = new Map(Object.keys(collections).map((name) => [name, collections[name]]));
  } catch {
    throw new DefinitionError(
      "records_definition_invalid",
      "defineRecords: the collections cannot be read (a getter or proxy threw); pass a plain object of zod object schemas",
    );
  }
  const names = [...schemas.keys()] as (keyof S & string)[];
  if (names.length === 0) {
    throw new DefinitionError("records_definition_invalid", "defineRecords: declare at least one collection");
  }
  // One walk over every collection: each schema is read once, and the bounds hold for the whole definition.
  const walk = new SchemaWalk("defineRecords");
  const subject = (name: string) => `collection "${name}"`;
  for (const name of names) {
    if (!collectionName.test(name)) {
      throw new DefinitionError(
        "records_definition_invalid",
        `defineRecords: collection "${name}" must be lower-case letters, digits and "_", starting with a letter`,
      );
    }
    const root = walk.get(schemas.get(name));
    const id = root.parts.find((part) => part.role === "field" && part.name === "id");
    if (root.type !== "object" || root.problem !== undefined || walk.get(id?.schema).type !== "string") {
      throw new DefinitionError(
        "records_definition_invalid",
        `defineRecords: collection "${name}" must be a z.object with "id: z.string()"${root.problem === undefined ? "" : ` (${root.problem})`}`,
      );
    }
    walk.read(schemas.get(name), subject(name), name);
  }
  // Every collection first, so a part shared with a labelled schema of another collection has its labels.
  for (const name of names) carryLabelsDown(schemas.get(name), walk, subject(name));
  const labelTrees = new Map<string, LabelNode>();
  for (const name of names) {
    const tree = labelTree(schemas.get(name), walk, subject(name), name);
    // Fail closed: a place whose label cannot be read is never assumed to be unlabelled.
    const [opaque] = labelsWithin(tree, name).opaque;
    if (opaque !== undefined) {
      throw new DefinitionError(
        "records_definition_invalid",
        `defineRecords: the label of ${opaque.path} cannot be established (${opaque.what}); build it from zod 4 types (objects, arrays, unions, wrappers, z.lazy…) whose getters return a schema, so its labels can be read`,
      );
    }
    labelTrees.set(name, tree);
  }
  const labels = (options.labels ?? {}) as Record<string, ((record: AnyRecord) => string) | undefined>;
  for (const name of Object.keys(labels)) {
    if (!names.includes(name)) {
      throw new DefinitionError(
        "records_definition_invalid",
        `defineRecords: labels.${name} names no collection; declared: ${names.join(", ")}`,
      );
    }
  }
  const maxPerCollection = options.maxPerCollection ?? 500;
  const definition: RecordsDefinition<S> = {
    collections,
    names,
    slot: createSlotBuilder<S>(),
    maxPerCollection,
    labelTrees,
    label: (collection, record, index) => {
      const build = labels[collection];
      if (build === undefined) return `${collection} record ${index + 1}`;
      try {
        const text = build(record);
        return typeof text === "string" ? text : `${collection} record ${index + 1}`;
      } catch {
        return `${collection} record ${index + 1}`;
      }
    },
  };
  return Object.freeze(definition);
}
