import type { Connection } from "./connection.js";
import type { Statements } from "./statements.js";

/**
 * Ids for audit events, outbound rows and queue items, drawn from the schema's sequence a block at a
 * time: `appendAudit` and friends return their id without waiting for the database, which is what lets
 * their writes wait and go out in batches. Ids are unique; across instances they are not in creation
 * order. A block unused when the process ends is a gap, nothing more.
 */
export class IdStock {
  private next = 0;
  private end = 0;

  constructor(private readonly statements: Statements) {}

  /** The next id, drawing a new block through `conn` when none is left. */
  async take(conn: Connection): Promise<string> {
    if (this.next >= this.end) await this.draw(conn);
    return String(this.next++);
  }

  /**
   * Draws a new block now if fewer than `low` ids are left: a transaction calls this before it takes
   * the decision lock, so the draw's round trip is not made while other instances wait for the lock.
   */
  async refill(conn: Connection, low: number): Promise<void> {
    if (this.end - this.next < low) await this.draw(conn);
  }

  private async draw(conn: Connection): Promise<void> {
    // The sequence counts in steps of a block: one nextval reserves [first, first + size). Sequences
    // are not transactional, so a block drawn in a transaction that rolls back stays drawn.
    const [row] = await conn.read<{ first: string; size: string }>(this.statements.nextIds, []);
    const first = Number(row?.first);
    // Two draws at once on one store: the second block is used when the first runs out, or dropped.
    if (this.next >= this.end) {
      this.next = first;
      this.end = first + Number(row?.size);
    }
  }
}
