/**
 * @module formletter/sqlite: the embedded store — one SQLite file, durable on commit.
 */
export { type SqliteStoreOptions, sqliteStore } from "./store.js";
