import { FormletterError } from "../../core/errors.js";
import { resultOf } from "../rows.js";
import { minuteOf, type SendCounts, type StoredResult, type StoreTransaction } from "../store.js";
import type { Connection, Statement } from "./connection.js";
import type { IdStock } from "./ids.js";
import { type CountOf, countsOf, type KnownCounts } from "./known-counts.js";
import { Pending } from "./pending.js";
import { idParam, outboundOf, queueItemOf, type Row, suppressionOf } from "./rows.js";
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
 * come from blocks drawn in advance, so a write returns at once. Reads of idempotency keys and queue
 * items, and exact reads of send counts, take the schema's decision lock first (see `decisionLock`), so
 * limits and idempotency are exact across instances.
 *
 * `optimistic`: answers that need the database are given without taking the lock where they can be,
 * and checked in the database, under the lock, in the statement that writes what they decided:
 * - `findResult` answers "no result" (a new key, the common case);
 * - `countSends` with `limits` answers from what this instance knows (`KnownCounts`: its own commits and
 *   earlier reads; none for a ticket or run it never saw) or, when that is not enough, from a read made
 *   without the lock. What is checked is the answer's side of each limit, not the number: another
 *   instance's sends far from a limit do not fail the check.
 * So an optimistic group commit of many handle() calls is one statement: other instances wait for the
 * lock while it checks and writes and commits, never while a round trip goes out and back. If a check
 * fails, the store rolls back and runs the transaction again, reading everything for real.
 */
export function transactionOn(
  conn: Connection,
  statements: Statements,
  ids: IdStock,
  known: KnownCounts,
  optimistic: boolean,
): OpenTransaction {
  const pending = new Pending();
  // Database counts (without this transaction's unwritten reservations) its answers relied on, since
  // the last batch of writes went out, by `CountOf.key`: learnt by `known` once the transaction commits.
  let answered = new Map<string, { of: CountOf; count: number }>();
  // Keys this transaction reserved: reading one back needs no check, and its answer is known.
  const reservedHere = new Map<string, StoredResult>();
  // The counts of the last `countSends`.
  let lastCounted: ReturnType<typeof countsOf> | undefined;
  // BEGIN goes out with the first read (pipelined, so at no cost). A transaction that only writes (a
  // delivery's outcome, an optimistic group commit) never sends it: its writes are one `apply`, which
  // commits alone, atomically.
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
  const readAfterWrites = <R extends Row>(statement: Statement, values: readonly unknown[]) => {
    const writes = pending.take();
    // Counts read before no longer include this transaction's reservations, once they are written.
    answered = new Map();
    return read<R>(statement, [...writes, ...values]);
  };
  const guess = (of: CountOf) => answered.get(of.key)?.count ?? known.guess(of);
  // The counts as this instance knows them, if it knows all three and they allow one more send.
  const guessWithin = (
    of: ReturnType<typeof countsOf>,
    own: SendCounts,
    limits: SendCounts,
  ): SendCounts | undefined => {
    const counts = { ticket: guess(of.ticket), day: guess(of.day), run: guess(of.run) };
    for (const d of dimensions) {
      const count = counts[d];
      if (count === undefined || count + own[d] >= limits[d]) return undefined;
    }
    return counts as SendCounts;
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
      const [row] = await read<{ result: unknown; message: unknown }>(statements.findResult, [
        pending.takeKeys(),
        key,
      ]);
      return resultOf(row?.result, row?.message);
    },
    countSends: async ({ template, ticketId, runId, since, limits }) => {
      const of = countsOf(template, ticketId, runId, minuteOf(since));
      lastCounted = of;
      const own = {
        ticket: pending.unwrittenOf(of.ticket),
        day: pending.unwrittenOf(of.day),
        run: pending.unwrittenOf(of.run),
      };
      // Checked at commit rather than read under the lock: only when the caller says what the counts
      // are compared with.
      const checked = optimistic && limits !== undefined;
      let db = checked ? guessWithin(of, own, limits) : undefined;
      if (db === undefined) {
        // A guess that would refuse is read again, so a refusal states a real count.
        const [row] = await read<{ ticket: string; day: string; run: string }>(statements.countSends, [
          checked ? null : pending.takeKeys(),
          !checked,
          template,
          ticketId,
          runId,
          of.day.minute,
        ]);
        db = { ticket: Number(row?.ticket), day: Number(row?.day), run: Number(row?.run) };
      }
      for (const d of dimensions) {
        answered.set(of[d].key, { of: of[d], count: db[d] });
        const limit = limits?.[d];
        if (checked && limit !== undefined && Number.isFinite(limit)) {
          const below = Math.ceil(limit - own[d]);
          pending.expect(of[d], below, db[d] < below);
        }
      }
      return { ticket: db.ticket + own.ticket, day: db.day + own.day, run: db.run + own.run };
    },
    reserve: async (entry) => {
      // Spend goes out at once, under the decision lock (held to COMMIT), not with the batch: see
      // migration 3. Whole units per (group, currency) of the message.
      const spend = (entry.spend ?? []).filter((item) => item.units > 0);
      if (spend.length > 0) {
        const rows = spend.map(({ group, currency, units }) => ({ group, currency, units }));
        await read(statements.addSpend, [JSON.stringify(rows), minuteOf(entry.at)]);
      }
      // The send counted just before is the one reserved (see recordDecision): its count keys are reused.
      const counted =
        lastCounted?.ticket.template === entry.template &&
        lastCounted.ticket.ticketId === entry.ticketId &&
        lastCounted.run.runId === entry.runId
          ? lastCounted
          : undefined;
      pending.reserve(entry, minuteOf(entry.at), counted);
      // A second reserve of the key fails in the database; the first result is the one read back.
      if (!reservedHere.has(entry.key)) reservedHere.set(entry.key, entry.result);
    },
    sumSpend: async ({ group, currency, since }) => {
      const [row] = await read<{ units: string }>(statements.sumSpend, [group, currency, minuteOf(since)]);
      return Number(row?.units ?? 0);
    },
    addContact: async ({ destination, template, at }) =>
      (await read(statements.addContact, [destination, template, at])).length === 1,
    hasContact: async (destination) => (await read(statements.hasContact, [destination])).length === 1,
    addDeliveryEvent: async ({ id, at }) => (await read(statements.addDeliveryEvent, [id, at])).length === 1,
    findOutboundByReceipt: async (receiptId) =>
      outboundOf((await read<Row>(statements.findOutboundByReceipt, [receiptId]))[0]),
    addSuppression: async (entry) =>
      (
        await read(statements.addSuppression, [
          entry.destination,
          entry.channel,
          entry.cause,
          entry.provider,
          entry.at,
          entry.auditId,
        ])
      ).length === 1,
    getSuppression: async (destination) =>
      suppressionOf((await read(statements.getSuppression, [destination]))[0]),
    removeSuppression: async (destination) =>
      suppressionOf((await read(statements.removeSuppression, [destination]))[0]),
    appendAudit: async (event) => {
      const id = await ids.take(conn);
      pending.insert("audit", { id, ...event });
      return id;
    },
    addOutbound: async (row) => {
      const id = await ids.take(conn);
      pending.insert("outbound", { id, ...row });
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
      pending.insert("queue", { id, ...item });
      return id;
    },
    getQueueItem: async (id) => {
      const param = idParam(id);
      if (param === undefined) return undefined;
      // Locked: a claim or an approval reads the item, checks its status and changes it; two instances
      // doing that at once take turns.
      const [row] = await readAfterWrites<Row>(statements.lockQueueItem, [param]);
      return queueItemOf(row);
    },
    updateQueueItem: async (id, change) => pending.update("queue", checkedId("queue", id), change),
  };

  return {
    tx,
    commit: async () => {
      // What the database will hold once this commits: the counts relied on, plus what is written now.
      const committed = new Map<string, number>();
      for (const [key, { of, count }] of answered) committed.set(key, count + pending.unwrittenOf(of));
      const writes = pending.take();
      const writing = writes.some((value) => value !== null);
      if (!begun) {
        conn.committing = true;
        if (writing) await conn.read(statements.apply, writes);
      } else {
        if (writing) await conn.write(statements.apply, writes);
        await conn.commit();
      }
      known.learn(committed);
    },
    rollback: async () => {
      if (begun && !conn.committing) await conn.rollback();
    },
  };
}

const dimensions = ["ticket", "day", "run"] as const;

function checkedId(table: string, id: string): string {
  const param = idParam(id);
  if (param === undefined) throw new FormletterError("store_invalid", `postgresStore: no ${table} row ${id}`);
  return param;
}
