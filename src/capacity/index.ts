/**
 * Capacity, exported from `formletter/metrics`: how much a steered model could encode through a catalog, per message, ticket and day.
 */
export type {
  CandidateBasis,
  CapacityCatalog,
  CapacityOptions,
  CatalogCapacity,
  TemplateCapacity,
  WorstCase,
} from "./capacity.js";
export { catalogCapacity } from "./capacity.js";
export type { SampleMessages } from "./enumerate.js";
export type { FieldExposure } from "./exposure.js";
export type { SlotCapacity } from "./slots.js";
