import {
  compareDecisions,
  type DecidedPair,
  type MessageChange,
  type MessageChangeKind,
} from "./message-pairs.js";
import type { ReviewItem } from "./review-items.js";

/** The messages of both catalogs over the same proposals, paired: counts of each kind and the first changes. */
export interface MessageReview {
  /** "history": each line's recorded proposal; "tickets": every proposal the model could make on each ticket. */
  readonly source: "history" | "tickets";
  /** Proposals decided by both catalogs. */
  readonly pairs: number;
  /** Same message on both sides, or no message on either. */
  readonly unchanged: number;
  readonly counts: Readonly<Record<MessageChangeKind, number>>;
  /** The first `maxListed` changes, in the order met. */
  readonly changes: readonly MessageChange[];
  /** Changes counted but not listed. */
  readonly more: number;
}

/** Options of a message review. */
export interface MessageReviewOptions {
  /** Most changes kept with their messages and diff; all are counted. @default 50 */
  readonly maxListed?: number;
}

/** Pairs decisions one proposal at a time; memory grows with `maxListed` and templates, not proposals. */
export class MessageReviewer {
  readonly #source: MessageReview["source"];
  readonly #maxListed: number;
  readonly #changes: MessageChange[] = [];
  readonly #counts: Record<MessageChangeKind, number> = {
    changed: 0,
    "recipient-changed": 0,
    "newly-sent": 0,
    "newly-escalated": 0,
  };
  /** Per template, how many proposals' messages went to another recipient, and the first one's ticket. */
  readonly #recipients = new Map<string, { count: number; first: string }>();
  #pairs = 0;

  constructor(source: MessageReview["source"], options: MessageReviewOptions = {}) {
    const max = options.maxListed ?? 50;
    if (!Number.isSafeInteger(max) || max < 0) throw new RangeError("maxListed must be a whole number ≥ 0");
    this.#source = source;
    this.#maxListed = max;
  }

  /** Counts one proposal decided by both catalogs. */
  add(pair: DecidedPair): void {
    this.#pairs += 1;
    const change = compareDecisions(pair);
    if (change === undefined) return;
    this.#counts[change.kind] += 1;
    if (this.#changes.length < this.#maxListed) this.#changes.push(change);
    if (change.kind === "recipient-changed") {
      const template = change.template ?? "(no template)";
      const seen = this.#recipients.get(template);
      if (seen === undefined) this.#recipients.set(template, { count: 1, first: placeOf(change) });
      else seen.count += 1;
    }
  }

  review(): MessageReview {
    const changed = Object.values(this.#counts).reduce((sum, count) => sum + count, 0);
    return {
      source: this.#source,
      pairs: this.#pairs,
      unchanged: this.#pairs - changed,
      counts: { ...this.#counts },
      changes: [...this.#changes],
      more: changed - this.#changes.length,
    };
  }

  /**
   * A `recipient-change` review item per template whose messages now go elsewhere: a reviewer must see
   * it whether or not the definition's recipient changed (a changed `where`, join or record schema can
   * move messages without touching `to`). Addresses stay out of the item: it is posted on a pull request.
   */
  items(): ReviewItem[] {
    return [...this.#recipients].map(([template, { count, first }]) => ({
      kind: "recipient-change",
      template,
      detail: `${count} message${count === 1 ? "" : "s"} of the ${this.#source} now go${count === 1 ? "es" : ""} to another recipient (first: ${first})`,
    }));
  }
}

/** Where a change came from, in words: "ticket T-1, line 4". */
export function placeOf(change: Pick<MessageChange, "ticketId" | "line">): string {
  return change.line === undefined
    ? `ticket ${change.ticketId}`
    : `ticket ${change.ticketId}, line ${change.line}`;
}
