/**
 * @module formletter/testing: safety checks for your own catalogs — a hostile corpus and property checks.
 */
export {
  type CatalogCheckFailure,
  type CatalogCheckOptions,
  type CatalogCheckReport,
  checkCatalog,
} from "./check-catalog.js";
export { hostileOutputs, hostileStrings } from "./corpus.js";
