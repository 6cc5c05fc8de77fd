/**
 * What this instance last knew of sends per (template, ticket) and per run in the database: read there,
 * or written by its own commits. Only a guess (another instance may have sent since): an optimistic
 * transaction answers counts from it and the database checks every answer before COMMIT (see
 * transactionOn). A ticket or run it never saw is guessed to have none, which is what a new ticket has.
 */
export class KnownCounts {
  private readonly tickets = new Map<string, number>();
  private readonly runs = new Map<string, number>();

  constructor(private readonly capacity = 50_000) {}

  ticket(template: string, ticketId: string): number {
    return this.tickets.get(ticketKey(template, ticketId)) ?? 0;
  }

  run(runId: string): number {
    return this.runs.get(runId) ?? 0;
  }

  /** Records counts known to be in the database now (read, or committed). */
  learn(tickets: ReadonlyMap<string, number>, runs: ReadonlyMap<string, number>): void {
    for (const [key, count] of tickets) this.set(this.tickets, key, count);
    for (const [key, count] of runs) this.set(this.runs, key, count);
  }

  private set(map: Map<string, number>, key: string, count: number): void {
    // Oldest first: re-inserting moves a key to the end, and the map is cut from the front.
    map.delete(key);
    map.set(key, count);
    if (map.size > this.capacity) {
      for (const old of map.keys()) {
        map.delete(old);
        if (map.size <= this.capacity) break;
      }
    }
  }
}

/** The key of a (template, ticket) pair in `KnownCounts`. */
export function ticketKey(template: string, ticketId: string): string {
  return `${template}\u0000${ticketId}`;
}
