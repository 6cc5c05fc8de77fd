/** @module Template changes reviewed like code: two catalogs compared by definition, with review items. */
export {
  type CatalogComparison,
  type ChangedTemplate,
  compareCatalogs,
  type RenamedTemplate,
  type TemplateSide,
} from "./compare-catalogs.js";
export { type DefinitionChange, definitionChanges } from "./definition-changes.js";
export { failedKinds, parseFailOn } from "./fail-on.js";
export { type ReviewItem, type ReviewItemKind, reviewItemKinds } from "./review-items.js";
