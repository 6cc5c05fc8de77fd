/**
 * @module The pre-launch checklist: computed from a catalog and a sample ticket, every item ✓, ✗ or ! with its evidence.
 */
export { buildChecklist, checklistDefaults } from "./checklist.js";
export {
  type ControlCheck,
  ceilingCheck,
  controlChecks,
  controlItems,
  firstContactCheck,
} from "./controls.js";
export type {
  Checklist,
  ChecklistCheck,
  ChecklistItem,
  ChecklistOptions,
  ChecklistStatus,
} from "./types.js";
