/**
 * @module formletter/testing: safety checks for your own catalogs — a hostile corpus, property checks,
 * and the pre-launch checklist (`buildChecklist`, what `formletter checklist` prints). The checklist's
 * per-control checks (`controlChecks`) stay inside: a new control adds its check there, in this package.
 */
export {
  buildChecklist,
  type Checklist,
  type ChecklistCheck,
  type ChecklistItem,
  type ChecklistOptions,
  type ChecklistStatus,
  checklistDefaults,
} from "../checklist/index.js";
export {
  type CatalogCheckFailure,
  type CatalogCheckOptions,
  type CatalogCheckReport,
  checkCatalog,
} from "./check-catalog.js";
export { hostileOutputs, hostileStrings } from "./corpus.js";
