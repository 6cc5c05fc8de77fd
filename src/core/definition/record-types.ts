/**
 * The types of records and tickets, apart from `defineRecords` so that slots (which `defineRecords`
 * builds) can name them without importing it back.
 */
import type { z } from "zod";

/** A collection's schema: a zod object whose records carry a string `id`. */
export type CollectionSchema = z.ZodObject<{ id: z.ZodType<string> } & z.core.$ZodLooseShape>;

/** The collections of a records definition, by name. */
export type CollectionSchemas = Readonly<Record<string, CollectionSchema>>;

/** A validated record of collection `C`. */
export type RecordOf<S extends CollectionSchemas, C extends keyof S> = z.output<S[C]>;

/** Any validated record: an object with a string `id`. */
export type AnyRecord = { readonly id: string } & Readonly<Record<string, unknown>>;

/** One ticket's snapshot, as your loader returns it: `{ ticketId, orders: [...], ... }`. */
export type TicketRecords<S extends CollectionSchemas = CollectionSchemas> = { readonly ticketId: string } & {
  readonly [C in keyof S]?: readonly z.input<S[C]>[];
};

/** One ticket's records after validation, typed per collection. */
export type TicketView<S extends CollectionSchemas = CollectionSchemas> = {
  readonly [C in keyof S]: readonly RecordOf<S, C>[];
};
