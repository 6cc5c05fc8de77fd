import type { CatalogComparison } from "./compare-catalogs.js";
import type { MessageReview } from "./message-review.js";
import type { OutdatedTranslation } from "./outdated-translations.js";
import type { CapacityChange, RateComparison } from "./rate-comparison.js";
import type { HistoryReview } from "./review-history.js";
import { sortItems } from "./review-items.js";
import type { TicketsReview } from "./review-tickets.js";

/** The paired messages of a review, with the lines that could not be read. */
export interface ReviewedMessages extends MessageReview {
  /** Lines skipped on both sides: not a ticket (with a proposal, for a history). */
  readonly malformed: number;
  /** Tickets only: proposals past the per-template limit, not compared. */
  readonly notEnumerated: number;
}

/**
 * Everything `formletter diff` reports: the definition-level comparison, capacity before and after, and,
 * given tickets or a history, the paired messages (and, over a history, both escalation rates). The
 * review items of both levels are merged. `messages` and `rates` are null when not computed, so the
 * JSON shape is the same with and without them.
 */
export interface DiffReview extends CatalogComparison {
  readonly capacity: readonly CapacityChange[];
  /** Locales whose default text changed in a part while theirs did not: "may be outdated". */
  readonly translations: readonly OutdatedTranslation[];
  readonly messages: ReviewedMessages | null;
  readonly rates: RateComparison | null;
}

/** Puts the levels of a review together, with one list of review items in review order. */
export function diffReview(
  comparison: CatalogComparison,
  capacity: readonly CapacityChange[],
  translations: readonly OutdatedTranslation[],
  run: HistoryReview | TicketsReview | undefined,
): DiffReview {
  const messages =
    run === undefined
      ? null
      : {
          ...run.messages,
          malformed: run.malformed,
          notEnumerated: "notEnumerated" in run ? run.notEnumerated : 0,
        };
  return {
    ...comparison,
    items: sortItems([...comparison.items, ...(run?.items ?? [])]),
    capacity,
    translations,
    messages,
    rates: run !== undefined && "rates" in run ? run.rates : null,
  };
}
