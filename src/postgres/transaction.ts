import { FormletterError } from "../errors.js";
import { minuteOf, type StoredResult, type StoreTransaction } from "../store/store.js";
import type { Connection, Statement } from "./connection.js";
import type { IdStock } from "./ids.js";
import { type KnownCounts, ticketKey } from "./known-counts.js";
import { Pending } from "./pending.js";
import { idParam, outboundOf, queueItemOf, type Row } from "./rows.js";
import type { Statements } from "./statements.js";

/** A transaction's operations, and how it ends. */
export interface OpenTransaction {
  readonly tx: StoreTransaction;
  /** Sends the writes not sent yet and commits; throws what failed, if anything did. */
  commit(): Promise<void>;
  /** Rolls back what was sent, if anything was. */
  rollback(): Promise<void>;
}

/**
 * The operations of one transaction on `conn`. Writes wait in `Pending` and go out in batches; ids
 * come from blocks drawn in advance, so a write returns at once. Reads of idempotency keys, send counts
 * and queue items take the schema's decision lock first (see `decisionLock`), so limits and idempotency
 * are exact across instances.
 *
 * `optimistic`: answers that need the database are given without a round trip where they can be, and
 * checked in the database, under the lock, before the writes made after them:
 * - `findResult` answers "no result" (a new key, the common case);
 * - `countSends`, once this transaction holds the lock, answers from what it read of the template's day
 *   count (which cannot change while it holds the lock, but by its own writes) and, for the ticket and
 *   the run, from what this instance last knew (`KnownCounts`; none for a ticket it never saw).
 * So a group commit of many handle() calls holds the lock for one round trip and its COMMIT, not for
 * one or two round trips each. If a check fails, the store rolls back and runs the transaction again,
 * reading everything for real.
 */
export function transactionOn(
  conn: Connection,
  statements: Statements,
  ids: IdStock,
  known: KnownCounts,
  optimistic: boolean,
): OpenTransaction {
  const pending = new Pending();
  // Set once a read took the decision lock; from then on no other transaction changes the counts.
  let locked = false;
  // Database counts (without this transaction's unwritten reservations) that answers relied on, since
  // the last batch of writes went out: the template's day from a read, tickets and runs read or guessed.
  let days = new Map<string, number>();
  let tickets = new Map<string, number>();
  let runs = new Map<string, number>();
  let ticketsSeen = new Map<string, [template: string, ticketId: string]>();
  // Keys this transaction reserved: reading one back needs no check, and its answer is known.
  const reservedHere = new Map<string, StoredResult>();
  // BEGIN goes out with the first read (pipelined, so at no cost). A transaction that only writes (a
  // delivery's outcome) never sends it: its writes are one `apply`, which commits alone, atomically.
  let begun = false;
  const begin = async () => {
    if (begun) return;
    begun = true;
    await conn.write("BEGIN");
  };
  const read = async <R extends Row>(statement: Statement, values: readonly unknown[]) => {
    await begin();
    return conn.read<R>(statement, values);
  };
  // Once this transaction's own reservations are written, counts read before no longer include them.
  const forgetCounts = () => {
    days = new Map();
    tickets = new Map();
    runs = new Map();
    ticketsSeen = new Map();
  };
  const readAfterWrites = <R extends Row>(statement: Statement, values: readonly unknown[]) => {
    const writes = pending.take();
    forgetCounts();
    return read<R>(statement, [...writes, ...values]);
  };

  const tx: StoreTransaction = {
    findResult: async (key) => {
      const own = reservedHere.get(key);
      // A copy, as a read from the database would be.
      if (own !== undefined) return JSON.parse(JSON.stringify(own));
      if (optimistic) {
        pending.assumeNew(key);
        return undefined;
      }
      const [row] = await read<{ result: unknown }>(statements.findResult, [pending.takeKeys(), key]);
      locked = true;
      return (row?.result ?? undefined) as Awaited<ReturnType<StoreTransaction["findResult"]>>;
    },
    countSends: async ({ template, ticketId, runId, since }) => {
      const minute = minuteOf(since);
      const dayKey = `${template}\u0000${minute}`;
      const ticketOf = ticketKey(template, ticketId);
      let day = days.get(dayKey);
      let ticket = tickets.get(ticketOf);
      let run = runs.get(runId);
      if (!(optimistic && locked && day !== undefined)) {
        const [row] = await read<{ ticket: string; day: string; run: string }>(statements.countSends, [
          pending.takeKeys(),
          template,
          ticketId,
          runId,
          minute,
        ]);
        locked = true;
        day = Number(row?.day);
        ticket = Number(row?.ticket);
        run = Number(row?.run);
        days.set(dayKey, day);
      } else {
        if (ticket === undefined) {
          ticket = known.ticket(template, ticketId);
          pending.expect({ template, ticketId }, ticket);
        }
        if (run === undefined) {
          run = known.run(runId);
          pending.expect({ runId }, run);
        }
      }
      tickets.set(ticketOf, ticket ?? 0);
      ticketsSeen.set(ticketOf, [template, ticketId]);
      runs.set(runId, run ?? 0);
      const own = pending.unwritten({ template, ticketId, runId, minute });
      return { ticket: (ticket ?? 0) + own.ticket, day: day + own.day, run: (run ?? 0) + own.run };
    },
    reserve: async (entry) => {
      pending.insert("reservations", {
        key: entry.key,
        template: entry.template,
        ticket_id: entry.ticketId,
        run_id: entry.runId,
        at: entry.at,
        result: entry.result,
        minute: minuteOf(entry.at),
      });
      // A second reserve of the key fails in the database; the first result is the one read back.
      if (!reservedHere.has(entry.key)) reservedHere.set(entry.key, entry.result);
    },
    appendAudit: async (event) => {
      const id = await ids.take(conn);
      pending.insert("audit", {
        id,
        at: event.at,
        type: event.type,
        ticket_id: event.ticketId,
        run_id: event.runId,
        template: event.template,
        outcome: event.outcome,
        reason: event.reason,
        key: event.key,
        actor: event.actor,
        data: event.data,
      });
      return id;
    },
    addOutbound: async (row) => {
      const id = await ids.take(conn);
      pending.insert("outbound", {
        id,
        key: row.key,
        ticket_id: row.ticketId,
        run_id: row.runId,
        template: row.template,
        message: row.message,
        status: row.status,
        attempts: row.attempts,
        created_at: row.createdAt,
        lease_until: row.leaseUntil,
        delivered_at: row.deliveredAt,
        receipt_id: row.receiptId,
        body_sha256: row.bodySha256,
      });
      return id;
    },
    getOutbound: async (id) => {
      const param = idParam(id);
      if (param === undefined) return undefined;
      return outboundOf((await readAfterWrites<Row>(statements.getOutboundAfter, [param]))[0]);
    },
    updateOutbound: async (id, change) => pending.update("outbound", checkedId("outbound", id), change),
    addQueueItem: async (item) => {
      const id = await ids.take(conn);
      pending.insert("queue", {
        id,
        status: item.status,
        reason: item.reason,
        ticket_id: item.ticketId,
        run_id: item.runId,
        template: item.template,
        detail: item.detail,
        key: item.key,
        draft: item.draft,
        note: item.note,
        created_at: item.createdAt,
        claimed_by: item.claimedBy,
        claimed_at: item.claimedAt,
        closed_by: item.closedBy,
        closed_at: item.closedAt,
        resolution: item.resolution,
        close_note: item.closeNote,
        audit_id: item.auditId,
        outbound_id: item.outboundId,
      });
      return id;
    },
    getQueueItem: async (id) => {
      const param = idParam(id);
      if (param === undefined) return undefined;
      // Locked: a claim or an approval reads the item, checks its status and changes it; two instances
      // doing that at once take turns.
      const [row] = await readAfterWrites<Row>(statements.lockQueueItem, [param]);
      locked = true;
      return queueItemOf(row);
    },
    updateQueueItem: async (id, change) => pending.update("queue", checkedId("queue", id), change),
  };

  return {
    tx,
    commit: async () => {
      // What the database will hold once this commits: the counts relied on, plus what is written now.
      const committed = { tickets: new Map<string, number>(), runs: new Map<string, number>() };
      for (const [key, [template, ticketId]] of ticketsSeen) {
        const count = tickets.get(key) ?? 0;
        committed.tickets.set(key, count + pending.unwrittenOf({ template, ticketId }));
      }
      for (const [runId, count] of runs) committed.runs.set(runId, count + pending.unwrittenOf({ runId }));
      const writes = pending.take();
      const writing = writes.some((value) => value !== null);
      if (!begun) {
        conn.committing = true;
        if (writing) await conn.read(statements.apply, writes);
      } else {
        if (writing) await conn.write(statements.apply, writes);
        await conn.commit();
      }
      known.learn(committed.tickets, committed.runs);
    },
    rollback: async () => {
      if (begun && !conn.committing) await conn.rollback();
    },
  };
}

function checkedId(table: string, id: string): string {
  const param = idParam(id);
  if (param === undefined) throw new FormletterError("store_invalid", `postgresStore: no ${table} row ${id}`);
  return param;
}
