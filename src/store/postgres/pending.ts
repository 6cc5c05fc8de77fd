import { FormletterError } from "../../core/errors.js";
import { merged } from "../../core/merged.js";
import { storedResult } from "../rows.js";
import type { StoredResult } from "../store.js";
import { type CountOf, countsOf } from "./known-counts.js";
import { outboundUpdatable, queueUpdatable } from "./rows.js";

type Fields = Record<string, unknown>;

/**
 * The writes a transaction made and has not sent, kept in the process and sent as JSON, set-wise, to the
 * schema's `apply` function (see schema.ts) with the next read that needs them, or before the COMMIT.
 * Reads of keys and counts do not need them: the counts of reservations not written yet are added here
 * (`unwrittenOf`). So a group commit of many handle() calls writes its few hundred rows in one statement,
 * with the checks of what it answered without reading (`assumeNew`, `expect`). Errors (a duplicate key, a
 * missing row, a failed check) come back with the read that sent the writes, or from the COMMIT.
 */
export class Pending {
  private audit: Fields[] = [];
  private outbound: Fields[] = [];
  private queue: Fields[] = [];
  private reservations: Fields[] = [];
  // The messages of the outbound rows in this batch, by id: a reservation of one of them leaves its
  // message out (see storedResult).
  private outboundMessages = new Map<string, unknown>();
  // What the reservations not written yet add to counts: per ticket and per run, and their minutes per
  // template (for the day).
  private unwrittenCounts = new Map<string, number>();
  private unwrittenMinutes = new Map<string, number[]>();
  // One merged change a row: nothing reads the row between two updates of one batch.
  private updates = new Map<string, { t: "outbound" | "queue"; id: string; c: Fields }>();
  private keys: string[] = [];
  // The strictest bound each count was answered against, a side of it.
  private expected = new Map<string, Fields & { below: number }>();
  private size = 0;

  /** An idempotency key the transaction took as new without reading it: checked with the next read. */
  assumeNew(key: string): void {
    this.keys.push(key);
    this.size += 1;
  }

  /**
   * A send count in the database the transaction answered without reading it under the decision lock,
   * as the side of a bound it relied on: `allowed` when the count was below `below`. `apply` checks it
   * under the lock before it writes reservations, and fails the transaction if the count has changed
   * sides. Of several bounds on one side of one count, the strictest stands for all.
   */
  expect(of: CountOf, below: number, allowed: boolean): void {
    const key = allowed ? of.key : `${of.key}\u0000refused`;
    const known = this.expected.get(key);
    if (known === undefined) {
      // Fields a kind has not are left out (null in `apply`): less JSON to write and parse.
      this.expected.set(key, {
        kind: of.kind,
        template: "template" in of ? of.template : undefined,
        ticketId: "ticketId" in of ? of.ticketId : undefined,
        runId: "runId" in of ? of.runId : undefined,
        minute: "minute" in of ? of.minute : undefined,
        below,
        allowed,
      });
      this.size += 1;
    } else {
      known.below = allowed ? Math.min(known.below, below) : Math.max(known.below, below);
    }
  }

  /** A new row, as the store's record with its id (field names as in store.ts; `apply` maps them). */
  insert(table: "audit" | "outbound" | "queue", row: Fields): void {
    this[table].push(row);
    if (table === "outbound") this.outboundMessages.set(row.id as string, row.message);
    this.size += 1;
  }

  /** A reservation, counted at once in the counts it is part of (see `unwrittenOf`). */
  reserve(
    row: { key: string; template: string; ticketId: string; runId: string; at: number; result: StoredResult },
    minute: number,
    counts: ReturnType<typeof countsOf> = countsOf(row.template, row.ticketId, row.runId, minute),
  ): void {
    // The columns only: the entry may carry more (spend goes out on its own), and each byte here is
    // encoded, sent and parsed again by `apply`.
    const { key, template, ticketId, runId, at, result } = row;
    this.reservations.push({
      key,
      template,
      ticketId,
      runId,
      at,
      result: storedResult(result, this.outboundMessages),
    });
    this.size += 1;
    for (const count of [counts.ticket.key, counts.run.key])
      this.unwrittenCounts.set(count, (this.unwrittenCounts.get(count) ?? 0) + 1);
    const minutes = this.unwrittenMinutes.get(row.template);
    if (minutes === undefined) this.unwrittenMinutes.set(row.template, [minute]);
    else minutes.push(minute);
  }

  /** Records an update by field name; a field set to undefined is cleared. */
  update(table: "outbound" | "queue", id: string, change: object): void {
    const columns = table === "outbound" ? outboundUpdatable : queueUpdatable;
    const c: Fields = {};
    for (const [field, value] of Object.entries(change)) {
      if (!Object.hasOwn(columns, field))
        throw new FormletterError("store_invalid", `postgresStore: ${table}.${field} cannot be changed`);
      // A json column's value travels as its JSON text (see `apply`).
      c[field] =
        value === undefined || value === null ? null : field === "draft" ? JSON.stringify(value) : value;
    }
    const row = `${table}\u0000${id}`;
    const merged = this.updates.get(row);
    if (merged !== undefined) Object.assign(merged.c, c);
    else {
      this.updates.set(row, { t: table, id, c });
      this.size += 1;
    }
  }

  /** The keys to check now, or null; they are not sent again. */
  takeKeys(): string[] | null {
    if (this.keys.length === 0) return null;
    const keys = this.keys;
    this.keys = [];
    this.size -= keys.length;
    return keys;
  }

  /** How many reservations not written yet a count includes. */
  unwrittenOf(of: CountOf): number {
    if (of.kind !== "day") return this.unwrittenCounts.get(of.key) ?? 0;
    let n = 0;
    for (const minute of this.unwrittenMinutes.get(of.template) ?? []) if (minute >= of.minute) n += 1;
    return n;
  }

  /**
   * The keys taken as new for `apply` to check, or null. A key reserved in the same batch needs no look-up
   * of its own: inserting its reservation fails on the primary key if another transaction reserved it
   * (a unique violation, which the store takes as it takes a failed check).
   */
  private keysToCheck(): string[] | null {
    if (this.keys.length === 0) return null;
    const reserved = new Set(this.reservations.map((row) => row.key));
    const keys = this.keys.filter((key) => !reserved.has(key));
    return keys.length > 0 ? keys : null;
  }

  /**
   * The writes as the seven parameters of `apply` (keys, then JSON arrays of audit events, outbound
   * rows, queue items, reservations, updates and expected counts; null where there are none); the next
   * writes start afresh.
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
        rows.map((row) =>
          row[field] === undefined ? row : merged(row, { [field]: JSON.stringify(row[field]) }),
        ),
      );
    };
    const batch: [string[] | null, ...(string | null)[]] = [
      this.keysToCheck(),
      json(this.audit, "data"),
      json(this.outbound, "message"),
      json(this.queue, "draft"),
      json(this.reservations, "result"),
      json([...this.updates.values()]),
      json([...this.expected.values()]),
    ];
    this.audit = [];
    this.outbound = [];
    this.queue = [];
    this.reservations = [];
    this.outboundMessages = new Map();
    this.unwrittenCounts = new Map();
    this.unwrittenMinutes = new Map();
    this.updates = new Map();
    this.keys = [];
    this.expected = new Map();
    this.size = 0;
    return batch;
  }
}

const noWrites: [null, ...null[]] = [null, null, null, null, null, null, null];
