import { FormletterError } from "../errors.js";
import { outboundUpdatable, queueUpdatable } from "./rows.js";

type Fields = Record<string, unknown>;

/**
 * The writes a transaction made and has not sent, kept in the process and sent as JSON, set-wise, to the
 * schema's `apply` function (see schema.ts) with the next read that needs them, or before the COMMIT.
 * Reads of keys and counts do not need them: the counts of reservations not written yet are added here
 * (`unwritten`). So a group commit of many handle() calls writes its few hundred rows in one statement,
 * and each call holds the decision lock for one small read. Errors (a duplicate key, a missing row) come
 * back with the read that sent the writes, or from the COMMIT.
 */
export class Pending {
  private audit: Fields[] = [];
  private outbound: Fields[] = [];
  private queue: Fields[] = [];
  private reservations: Fields[] = [];
  private updates: { t: "outbound" | "queue"; id: string; c: Fields }[] = [];
  private keys: string[] = [];
  private expectedTickets: Fields[] = [];
  private expectedRuns: Fields[] = [];
  private size = 0;

  /** An idempotency key the transaction took as new without reading it: checked with the next read. */
  assumeNew(key: string): void {
    this.keys.push(key);
    this.size += 1;
  }

  /**
   * A count of sends in the database the transaction answered without reading it: `apply` checks it
   * before it writes anything, and fails the transaction if it was wrong.
   */
  expect(what: { template: string; ticketId: string } | { runId: string }, n: number): void {
    if ("runId" in what) this.expectedRuns.push({ run_id: what.runId, n });
    else this.expectedTickets.push({ template: what.template, ticket_id: what.ticketId, n });
    this.size += 1;
  }

  insert(table: "audit" | "outbound" | "queue" | "reservations", row: Fields): void {
    this[table].push(row);
    this.size += 1;
  }

  /** Records an update by field name; a field set to undefined is cleared. */
  update(table: "outbound" | "queue", id: string, change: object): void {
    const columns = table === "outbound" ? outboundUpdatable : queueUpdatable;
    const c: Fields = {};
    for (const [field, value] of Object.entries(change)) {
      const column = Object.hasOwn(columns, field) ? columns[field] : undefined;
      if (column === undefined)
        throw new FormletterError("store_invalid", `postgresStore: ${table}.${field} cannot be changed`);
      // A json column's value travels as its JSON text (see `apply`).
      c[column] =
        value === undefined || value === null ? null : column === "draft" ? JSON.stringify(value) : value;
    }
    this.updates.push({ t: table, id, c });
    this.size += 1;
  }

  /** The keys to check now, or null; they are not sent again. */
  takeKeys(): string[] | null {
    if (this.keys.length === 0) return null;
    const keys = this.keys;
    this.keys = [];
    this.size -= keys.length;
    return keys;
  }

  /** Sends of reservations made in this transaction and not written yet, counted as `countSends` counts. */
  unwritten(query: { template: string; ticketId: string; runId: string; minute: number }) {
    let ticket = 0;
    let day = 0;
    let run = 0;
    for (const row of this.reservations) {
      if (row.template === query.template) {
        if (row.ticket_id === query.ticketId) ticket += 1;
        if ((row.minute as number) >= query.minute) day += 1;
      }
      if (row.run_id === query.runId) run += 1;
    }
    return { ticket, day, run };
  }

  /** How many reservations not written yet are of one (template, ticket), or of one run. */
  unwrittenOf(what: { template: string; ticketId: string } | { runId: string }): number {
    let n = 0;
    for (const row of this.reservations) {
      if (
        "runId" in what
          ? row.run_id === what.runId
          : row.template === what.template && row.ticket_id === what.ticketId
      )
        n += 1;
    }
    return n;
  }

  /**
   * The writes as the eight parameters of `apply` (keys, then JSON arrays of audit events, outbound
   * rows, queue items, reservations, updates, expected ticket and run counts; null where there are
   * none); the next writes start afresh.
   */
  take(): [string[] | null, ...(string | null)[]] {
    if (this.size === 0) return noWrites;
    const json = (rows: readonly Fields[], field?: string) => {
      if (rows.length === 0) return null;
      const text = JSON.stringify(rows);
      // JSON functions in Postgres turn every string they read into text, which cannot hold NUL: a
      // value holding an escaped NUL (model output can) travels as a string of its JSON text instead,
      // which `apply` unwraps (see `json_value`).
      if (field === undefined || !text.includes("\\u0000")) return text;
      return JSON.stringify(
        rows.map((row) => (row[field] === undefined ? row : { ...row, [field]: JSON.stringify(row[field]) })),
      );
    };
    const batch: [string[] | null, ...(string | null)[]] = [
      this.keys.length > 0 ? this.keys : null,
      json(this.audit, "data"),
      json(this.outbound, "message"),
      json(this.queue, "draft"),
      json(this.reservations, "result"),
      json(this.updates),
      json(this.expectedTickets),
      json(this.expectedRuns),
    ];
    this.audit = [];
    this.outbound = [];
    this.queue = [];
    this.reservations = [];
    this.updates = [];
    this.keys = [];
    this.expectedTickets = [];
    this.expectedRuns = [];
    this.size = 0;
    return batch;
  }
}

const noWrites: [null, ...null[]] = [null, null, null, null, null, null, null, null];
