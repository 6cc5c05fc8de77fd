import type { Catalog } from "../core/decision/catalog.js";
import { printableLine } from "../core/message/sanitize.js";
import { checkCatalog } from "../testing/check-catalog.js";
import type { ChecklistItem } from "./types.js";

/** The label and scan properties of `formletter/testing`'s `checkCatalog`, run on the sample. */
export function propertiesItem(catalog: Catalog, sample: unknown, runs: number, seed: number): ChecklistItem {
  const report = checkCatalog(catalog, sample, { runs, seed });
  const escalated = Object.values(report.escalations).reduce((sum, count) => sum + count, 0);
  const first = report.failures[0];
  const counted = `${report.runs} random decisions (seed ${seed}): ${report.sends} sent, ${escalated} escalated`;
  return {
    section: "live",
    template: undefined,
    check: "properties",
    status: first === undefined ? "pass" : "fail",
    summary:
      first === undefined
        ? `${counted}; labels respected, every part scanned, nothing hidden, never threw`
        : `${counted}; ${report.failures.length} properties did not hold`,
    evidence:
      first === undefined
        ? []
        : [
            `first failing case: ${first.property}${first.template === undefined ? "" : ` (template ${first.template})`}${first.hostileRecords ? " with hostile records" : ""}: ${printableLine(first.detail).slice(0, 160)}`,
          ],
  };
}
