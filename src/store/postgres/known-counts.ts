/**
 * A send count the limits use: of a template on a ticket, of a template since a minute, or of a run;
 * `key` names it in maps.
 */
export type CountOf =
  | { readonly kind: "ticket"; readonly key: string; readonly template: string; readonly ticketId: string }
  | { readonly kind: "day"; readonly key: string; readonly template: string; readonly minute: number }
  | { readonly kind: "run"; readonly key: string; readonly runId: string };

/** The three counts one send is checked against. */
export function countsOf(template: string, ticketId: string, runId: string, minute: number) {
  return {
    ticket: { kind: "ticket", key: `t\u0000${template}\u0000${ticketId}`, template, ticketId },
    day: { kind: "day", key: `d\u0000${template}\u0000${minute}`, template, minute },
    run: { kind: "run", key: `r\u0000${runId}`, runId },
  } as const satisfies Record<string, CountOf>;
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
    return this.counts.get(of.key) ?? (of.kind === "day" ? undefined : 0);
  }

  /** Records counts known to be in the database now (read, or committed), by `CountOf.key`. */
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
