/** A send count the limits use: of a template on a ticket, of a template since a minute, or of a run. */
export type CountOf =
  | { readonly kind: "ticket"; readonly template: string; readonly ticketId: string }
  | { readonly kind: "day"; readonly template: string; readonly minute: number }
  | { readonly kind: "run"; readonly runId: string };

/** One string per count, for maps. */
export function countKey(of: CountOf): string {
  switch (of.kind) {
    case "ticket":
      return `t\u0000${of.template}\u0000${of.ticketId}`;
    case "day":
      return `d\u0000${of.template}\u0000${of.minute}`;
    case "run":
      return `r\u0000${of.runId}`;
  }
}

/**
 * What this instance last knew of send counts in the database: read there, or written by its own
 * commits. Only a guess (another instance may have sent since): an optimistic transaction answers
 * counts from it and the database checks, before COMMIT, that each answer is on the same side of its
 * limit as the real count (see transactionOn). A ticket or run it never saw is guessed to have none,
 * which is what a new ticket has; a template's day it never read is read.
 */
export class KnownCounts {
  private readonly counts = new Map<string, number>();

  constructor(private readonly capacity = 100_000) {}

  guess(of: CountOf): number | undefined {
    return this.counts.get(countKey(of)) ?? (of.kind === "day" ? undefined : 0);
  }

  /** Records counts known to be in the database now (read, or committed), by `countKey`. */
  learn(counts: ReadonlyMap<string, number>): void {
    for (const [key, count] of counts) {
      // Oldest first: re-inserting moves a key to the end, and the map is cut from the front.
      this.counts.delete(key);
      this.counts.set(key, count);
    }
    if (this.counts.size > this.capacity) {
      for (const old of this.counts.keys()) {
        this.counts.delete(old);
        if (this.counts.size <= this.capacity) break;
      }
    }
  }
}
