import type { Catalog } from "../core/decision/catalog.js";
import { decideHistoryTicket, type HistoryReadOptions, readHistory } from "../metrics/history-reader.js";
import { type MessageReview, MessageReviewer, type MessageReviewOptions } from "./message-review.js";
import { compareRates, type RateComparison, RateCounter } from "./rate-comparison.js";
import type { ReviewItem } from "./review-items.js";

/** Two catalogs over one history: the paired messages, both escalation rates, and the review items. */
export interface HistoryReview {
  readonly messages: MessageReview;
  readonly rates: RateComparison;
  /** Lines that are not a ticket with a proposal, skipped on both sides. */
  readonly malformed: number;
  readonly items: readonly ReviewItem[];
}

/**
 * Replays a history file's recorded proposals through both catalogs, line by line in constant memory:
 * each line is read once and decided by each catalog as `formletter replay` would, and the two decisions
 * are paired by ticket and line.
 */
export async function reviewHistory(
  base: Pick<Catalog, "decide">,
  head: Pick<Catalog, "decide">,
  path: string,
  options: MessageReviewOptions & HistoryReadOptions = {},
): Promise<HistoryReview> {
  const reviewer = new MessageReviewer("history", options);
  const before = new RateCounter();
  const after = new RateCounter();
  let malformed = 0;
  await readHistory(
    path,
    {
      problem: () => {
        malformed += 1;
      },
      ticket(ticket, line) {
        const pair = {
          ticketId: ticket.ticketId,
          line,
          base: decideHistoryTicket(base, ticket),
          head: decideHistoryTicket(head, ticket),
        };
        before.add(pair.base.outcome);
        after.add(pair.head.outcome);
        reviewer.add(pair);
      },
    },
    options,
  );
  return {
    messages: reviewer.review(),
    rates: compareRates(before, after),
    malformed,
    items: reviewer.items(),
  };
}
