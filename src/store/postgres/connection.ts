import type { PoolClient, QueryResultRow } from "pg";
import { isConnectionError } from "./unavailable.js";

/** A statement the store runs often: named, so each connection parses and plans it once. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/**
 * One pooled connection, for one call or one transaction. Statements whose rows nobody needs (BEGIN,
 * the batch of writes before COMMIT) are sent without waiting when the connection pipelines (`pg` ≥
 * 8.20 with `pipeline: true`), so they ride with the statement after them: BEGIN with the first read,
 * the writes with COMMIT. The first failure is reported by the next read or the COMMIT, as itself (not
 * as the "transaction is aborted" error of what followed it). Without pipelining each statement waits
 * for its reply, with the same results.
 */
export class Connection {
  private readonly pending: Promise<unknown>[] = [];
  private failure: { error: unknown } | undefined;
  private readonly pipelined: boolean;
  /** Set once a statement failed because the connection broke. */
  broken = false;
  /** Set once COMMIT (or a lone writing statement) was sent: a broken connection leaves the outcome unknown. */
  committing = false;
  private readonly onError = (error: unknown) => {
    // A checked-out client that loses its socket emits "error"; unheard, it would end the process.
    this.broken = true;
    this.failure ??= { error };
  };

  constructor(readonly client: PoolClient) {
    this.pipelined = (client as { pipeline?: boolean }).pipeline === true;
    client.on("error", this.onError);
  }

  /** Sends a statement whose rows are not needed; resolves at once when pipelined. */
  async write(statement: Statement | string, values?: readonly unknown[]): Promise<void> {
    const sent = this.send(statement, values);
    if (!this.pipelined) {
      await sent;
      return;
    }
    this.pending.push(
      sent.catch((error: unknown) => {
        this.failure ??= { error };
      }),
    );
  }

  /** Runs a statement after every write sent before it, and returns its rows. */
  async read<R extends QueryResultRow>(
    statement: Statement | string,
    values?: readonly unknown[],
  ): Promise<R[]> {
    const sent = this.send<R>(statement, values);
    try {
      const result = await sent;
      await this.settle();
      return result.rows;
    } catch (error) {
      await this.settle().catch(() => undefined);
      // Whatever failed aborted the transaction: COMMIT must not report success later.
      this.failure ??= { error };
      throw this.failure.error;
    }
  }

  /** The first statement that failed in this transaction, if any. */
  get firstFailure(): unknown {
    return this.failure?.error;
  }

  /** Waits for every write sent so far and throws the first failure, if any. */
  async settle(): Promise<void> {
    if (this.pending.length > 0) await Promise.all(this.pending.splice(0));
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** Forgets a failed transaction after its rollback, so the connection can run another. */
  reset(): void {
    this.pending.splice(0);
    this.failure = undefined;
    this.committing = false;
  }

  /**
   * Commits, or throws the first failure of the transaction. (Postgres answers COMMIT of a transaction
   * a failed statement aborted with ROLLBACK, not with an error: the failure must come from here.)
   */
  async commit(): Promise<void> {
    this.committing = true;
    const committed = this.send("COMMIT");
    let command: string | undefined;
    try {
      command = (await committed).command;
    } finally {
      await this.settle();
    }
    if (command !== "COMMIT") throw new Error(`postgresStore: COMMIT answered ${command}`);
  }

  /** Rolls back if the connection still works; a broken connection has rolled back already. */
  async rollback(): Promise<void> {
    if (this.broken) return;
    this.pending.splice(0);
    await this.client.query("ROLLBACK").catch(() => undefined);
  }

  /** Returns the connection to the pool, or discards it if it broke. */
  release(): void {
    this.client.removeListener("error", this.onError);
    // A broken client must not be handed out again; it ends in the pool's error handling.
    if (this.broken) this.client.on("error", () => undefined);
    this.client.release(this.broken ? new Error("formletter: connection broken") : undefined);
  }

  private send<R extends QueryResultRow>(statement: Statement | string, values?: readonly unknown[]) {
    const config =
      typeof statement === "string"
        ? { text: statement, ...(values ? { values: values as unknown[] } : {}) }
        : { name: statement.name, text: statement.text, values: (values ?? []) as unknown[] };
    const result = this.client.query<R>(config);
    return result.catch((error: unknown) => {
      if (isConnectionError(error)) this.broken = true;
      throw error;
    });
  }
}
