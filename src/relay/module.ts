import type { Catalog } from "../core/decision/catalog.js";

/**
 * What `formletter serve --catalog MODULE` loads: your catalog, and the loader that reads one ticket's
 * records from your system of record, as named exports `catalog` and `load` (or one default export
 * holding both). `close`, if exported, runs when the relay stops (end a database pool there). Loading
 * runs the module, so every definition-time check of the catalog runs before the relay listens.
 *
 * @example
 * import { createCatalog } from "formletter";
 * import type { RelayModule } from "formletter/relay";
 * export const catalog = createCatalog(records, [trackingRequest, damageReport]);
 * export const load: RelayModule["load"] = (ticketId) => db.recordsFor(ticketId);
 * export const close: RelayModule["close"] = () => db.end();
 */
export interface RelayModule {
  /** The catalog the relay decides with, built with `createCatalog`. */
  readonly catalog: Catalog;
  /** One ticket's records (`{ ticketId, <collection>: [...] }`), or a promise of them. */
  readonly load: (ticketId: string) => unknown;
  /** Runs once at shutdown, after the outbox has closed. @default undefined */
  readonly close?: () => unknown;
}
