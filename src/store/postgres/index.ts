/**
 * @module formletter/postgres: the store for several instances — one PostgreSQL database, exact limits and idempotency across processes.
 */
export {
  type PostgresConnection,
  type PostgresStore,
  type PostgresStoreOptions,
  postgresStore,
} from "./store.js";
export { StoreUnavailableError } from "./unavailable.js";
