/** @module Template changes reviewed like code: two catalogs compared by definition, with review items. */
export {
  type CatalogComparison,
  type ChangedTemplate,
  compareCatalogs,
  type TemplateSide,
} from "./compare-catalogs.js";
export { failedKinds, parseFailOn } from "./fail-on.js";
export { type ReviewItem, type ReviewItemKind, reviewItemKinds } from "./review-items.js";
