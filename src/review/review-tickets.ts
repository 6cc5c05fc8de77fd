import type { Catalog } from "../core/decision/catalog.js";
import { countCombinations, dimensionsOf, proposalAt } from "../core/preview/combinations.js";
import { type HistoryReadOptions, readHistory } from "../metrics/history-reader.js";
import { type MessageReview, MessageReviewer, type MessageReviewOptions } from "./message-review.js";
import type { ReviewItem } from "./review-items.js";

/** What a tickets review reads of a catalog. */
export type ReviewedCatalog = Pick<Catalog, "decide" | "prepare" | "templates">;

/** Options of {@link reviewTickets}. */
export interface TicketReviewOptions extends MessageReviewOptions, HistoryReadOptions {
  /** Most proposals enumerated per template and ticket, on each side; the rest are counted. @default 1000 */
  readonly maxProposals?: number;
}

/** Two catalogs over tickets without recorded proposals: every proposal either could take, paired. */
export interface TicketsReview {
  readonly messages: MessageReview;
  /** Lines that are not a ticket with records, skipped. */
  readonly malformed: number;
  /** Proposals past `maxProposals` on some template of some ticket: not decided, so not compared. */
  readonly notEnumerated: number;
  readonly items: readonly ReviewItem[];
}

/**
 * For each ticket of a tickets file (JSON Lines of `{ ticketId, records }`; a history file works too,
 * its proposals ignored), every proposal the model could make with either catalog's templates, as
 * `catalog.preview` enumerates them, is decided by both catalogs and paired. A proposal only one side
 * can express (a new slot, a new template) is decided by the other side too, which escalates it.
 */
export async function reviewTickets(
  base: ReviewedCatalog,
  head: ReviewedCatalog,
  path: string,
  options: TicketReviewOptions = {},
): Promise<TicketsReview> {
  const maxProposals = options.maxProposals ?? 1000;
  if (!Number.isSafeInteger(maxProposals) || maxProposals < 1)
    throw new RangeError("maxProposals must be a whole number ≥ 1");
  const reviewer = new MessageReviewer("tickets", options);
  let malformed = 0;
  let notEnumerated = 0;
  await readHistory(
    path,
    {
      problem: () => {
        malformed += 1;
      },
      ticket(ticket) {
        const records = withTicketId(ticket.records, ticket.ticketId);
        const sides = [base, head].map((catalog) => ({ catalog, prepared: catalog.prepare(records) }));
        const proposals = new Map<string, unknown>();
        for (const { catalog, prepared } of sides) {
          if (!prepared.ok) continue;
          for (const template of catalog.templates) {
            const dimensions = dimensionsOf(template, prepared.ticket);
            const total = countCombinations(dimensions);
            notEnumerated += Math.max(0, total - maxProposals);
            for (let index = 0; index < Math.min(total, maxProposals); index++) {
              const proposal = proposalAt(template.id, dimensions, index);
              proposals.set(proposalKey(proposal.template, proposal.slots), proposal);
            }
          }
        }
        // Records that do not prepare are decided raw: decide() escalates them as records_invalid.
        const [before, after] = sides.map(({ prepared }) => (prepared.ok ? prepared.ticket : records));
        for (const proposal of proposals.values()) {
          reviewer.add({
            ticketId: ticket.ticketId,
            line: undefined,
            base: base.decide(proposal, before),
            head: head.decide(proposal, after),
          });
        }
      },
    },
    { ...options, outputOptional: true },
  );
  return { messages: reviewer.review(), malformed, notEnumerated, items: reviewer.items() };
}

function withTicketId(records: unknown, ticketId: string): unknown {
  if (typeof records !== "object" || records === null || Array.isArray(records)) return records;
  return Object.hasOwn(records, "ticketId") ? records : { ...records, ticketId };
}

/** The same proposal whatever order its slots were enumerated in. */
function proposalKey(template: string, slots: Readonly<Record<string, string | null>>): string {
  return JSON.stringify([template, Object.entries(slots).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
}
