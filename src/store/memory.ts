import { FormletterError } from "../core/errors.js";
import { merged } from "../core/merged.js";
import { matchesQueueFilter, pageSize, statusesOf } from "./filters.js";
import { MinuteSeries } from "./minute-series.js";
import { outboundUpdatable, queueUpdatable, unchangeableField } from "./rows.js";
import type {
  AuditEvent,
  AuditFilter,
  OutboundRow,
  QueueFilter,
  QueueItem,
  QueuePage,
  Store,
  StoredResult,
  StoreTransaction,
  Suppression,
} from "./store.js";
import { minuteOf } from "./store.js";
import { endLease, leaseTransaction } from "./transaction-lease.js";

interface Reservation {
  readonly key: string;
  readonly template: string;
  readonly ticketId: string;
  readonly runId: string;
  readonly at: number;
  readonly result: StoredResult;
}

/**
 * A store in process memory, for tests and examples: the same semantics as the durable stores
 * (transactions commit all or nothing, one at a time), and nothing survives the process.
 *
 * @example
 * import { createOutbox, memoryStore } from "formletter";
 * const outbox = createOutbox({ catalog, load, store: memoryStore(), transports });
 */
export function memoryStore(): Store {
  const bump = <K>(counts: Map<K, number>, key: K, by: number) =>
    counts.set(key, (counts.get(key) ?? 0) + by);
  const reservations = new Map<string, Reservation>();
  // Counters kept beside the reservations, so limits cost the same at the millionth send as at the first
  // (the day count is a running total, moved on a minute at a time: see MinuteSeries).
  // Sends per ticket, by template then ticket: no key string to build (and hash) for each look-up.
  const perTicket = new Map<string, Map<string, number>>();
  const perRun = new Map<string, number>();
  const perMinute = new Map<string, MinuteSeries>();
  // Value ceilings: units per (group, currency), per minute.
  const spentPerMinute = new Map<string, MinuteSeries>();
  const outboundKeys = new Set<string>();
  const contacts = new Set<string>();
  const deliveryEvents = new Set<string>();
  const suppressions = new Map<string, Suppression>();
  const audit: AuditEvent[] = [];
  const outbound = new Map<string, OutboundRow>();
  const queue = new Map<string, QueueItem>();
  let nextId = 1;
  let chain: Promise<unknown> = Promise.resolve();
  let closed = false;

  // Transactions and reads run one after another, so a read never sees a transaction's uncommitted writes.
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const result = chain.then(work, work);
    chain = result.catch(() => undefined);
    return result;
  };

  // Transactions run one at a time (see serial), so one set of methods serves them all: the writes of
  // the transaction now running, undone in reverse order if it throws. No closures are made a transaction.
  const undo: (() => void)[] = [];
  const id = () => String(nextId++);
  const tx: StoreTransaction = {
    findResult: async (key) => reservations.get(key)?.result,
    countSends: async ({ template, ticketId, runId, since }) => {
      return {
        ticket: perTicket.get(template)?.get(ticketId) ?? 0,
        day: perMinute.get(template)?.sumFrom(minuteOf(since)) ?? 0,
        run: perRun.get(runId) ?? 0,
      };
    },
    sumSpend: async ({ group, currency, since }) =>
      spentPerMinute.get(`${group}\u0000${currency}`)?.sumFrom(minuteOf(since)) ?? 0,
    reserve: async (entry) => {
      if (reservations.has(entry.key)) throw new Error(`memoryStore: key ${entry.key} is already reserved`);
      reservations.set(entry.key, entry);
      const tickets = perTicket.get(entry.template) ?? new Map<string, number>();
      perTicket.set(entry.template, tickets);
      const minute = minuteOf(entry.at);
      const minutes = perMinute.get(entry.template) ?? new MinuteSeries();
      perMinute.set(entry.template, minutes);
      bump(tickets, entry.ticketId, 1);
      bump(perRun, entry.runId, 1);
      minutes.add(minute, 1);
      for (const { group, currency, units } of entry.spend ?? []) {
        const spendKey = `${group}\u0000${currency}`;
        const spent = spentPerMinute.get(spendKey) ?? new MinuteSeries();
        spentPerMinute.set(spendKey, spent);
        spent.add(minute, units);
        undo.push(() => spent.add(minute, -units));
      }
      undo.push(() => {
        reservations.delete(entry.key);
        bump(tickets, entry.ticketId, -1);
        bump(perRun, entry.runId, -1);
        minutes.add(minute, -1);
      });
    },
    addContact: async ({ destination }) => {
      if (contacts.has(destination)) return false;
      contacts.add(destination);
      undo.push(() => contacts.delete(destination));
      return true;
    },
    hasContact: async (destination) => contacts.has(destination),
    addDeliveryEvent: async ({ id: eventId }) => {
      if (deliveryEvents.has(eventId)) return false;
      deliveryEvents.add(eventId);
      undo.push(() => deliveryEvents.delete(eventId));
      return true;
    },
    findOutboundByReceipt: async (receiptId) => {
      let found: OutboundRow | undefined;
      for (const row of outbound.values()) if (row.receiptId === receiptId) found = row;
      return found;
    },
    addSuppression: async (entry) => {
      if (suppressions.has(entry.destination)) return false;
      suppressions.set(entry.destination, entry);
      undo.push(() => suppressions.delete(entry.destination));
      return true;
    },
    getSuppression: async (destination) => suppressions.get(destination),
    removeSuppression: async (destination) => {
      const before = suppressions.get(destination);
      if (before === undefined) return undefined;
      suppressions.delete(destination);
      undo.push(() => suppressions.set(destination, before));
      return before;
    },
    appendAudit: async (event) => {
      const stored = storedEvent(event, id());
      audit.push(stored);
      return stored.id;
    },
    addOutbound: async (row) => {
      const stored = storedOutbound(row, id());
      if (outboundKeys.has(row.key))
        throw new Error(`memoryStore: an outbound row with key ${row.key} exists`);
      outbound.set(stored.id, stored);
      outboundKeys.add(row.key);
      undo.push(() => {
        outbound.delete(stored.id);
        outboundKeys.delete(row.key);
      });
      return stored.id;
    },
    getOutbound: async (rowId) => outbound.get(rowId),
    updateOutbound: async (rowId, change) => {
      const before = outbound.get(rowId);
      if (before === undefined) throw new Error(`memoryStore: no outbound row ${rowId}`);
      refuseUnchangeable("outbound", change, outboundUpdatable);
      // Every field `change` may name is one of the row's: assigned over a copy, none is added.
      outbound.set(rowId, Object.assign(storedOutbound(before, rowId), change));
      undo.push(() => outbound.set(rowId, before));
    },
    addQueueItem: async (item) => {
      const stored = merged(item, { id: id() });
      queue.set(stored.id, stored);
      undo.push(() => queue.delete(stored.id));
      return stored.id;
    },
    getQueueItem: async (itemId) => queue.get(itemId),
    updateQueueItem: async (itemId, change) => {
      const before = queue.get(itemId);
      if (before === undefined) throw new Error(`memoryStore: no queue item ${itemId}`);
      refuseUnchangeable("queue", change, queueUpdatable);
      queue.set(itemId, merged(before, change));
      undo.push(() => queue.set(itemId, before));
    },
  };

  const transaction = async <T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> => {
    const run = async (): Promise<T> => {
      if (closed) throw new Error("memoryStore: the store is closed");
      // Writes apply at once; the work's methods are leased to it, so a write through them after it
      // ended is refused, never taken for (and undone with) the transaction running then.
      undo.length = 0;
      const leased = leaseTransaction(tx);
      // Audit events are only ever appended, and transactions run one at a time: undoing this one's is
      // cutting the log back to its length now (no step, and no closure, for each event).
      const auditBefore = audit.length;
      try {
        return await work(leased);
      } catch (error) {
        for (let step = undo.length - 1; step >= 0; step--) undo[step]?.();
        audit.length = auditBefore;
        throw error;
      } finally {
        endLease(leased);
        undo.length = 0;
      }
    };
    return serial(run);
  };

  return {
    name: "memory",
    transaction,
    claimDue: ({ now, leaseUntil, limit, id }) =>
      transaction(async () => {
        const due: OutboundRow[] = [];
        for (const row of outbound.values()) {
          if (due.length >= limit) break;
          if (id !== undefined && row.id !== id) continue;
          if (row.status !== "pending" && row.status !== "delivering") continue;
          if (row.leaseUntil !== undefined && row.leaseUntil > now) continue;
          outbound.set(row.id, merged(row, { status: "delivering" as const, leaseUntil }));
          due.push(merged(row, { leaseUntil }));
        }
        return due;
      }),
    getQueueItem: (id) => serial(async () => queue.get(id)),
    getOutbound: (id) => serial(async () => outbound.get(id)),
    listQueue: (filter: QueueFilter): Promise<QueuePage> =>
      serial(async () => {
        const limit = pageSize(filter.limit);
        const after = filter.cursor === undefined ? 0 : Number(filter.cursor);
        const statuses = statusesOf(filter.status);
        const items: QueueItem[] = [];
        for (const item of queue.values()) {
          if (Number(item.id) <= after || !matchesQueueFilter(item, filter, statuses)) continue;
          items.push(item);
          if (items.length > limit) break;
        }
        const page = items.slice(0, limit);
        return { items: page, nextCursor: items.length > limit ? page.at(-1)?.id : undefined };
      }),
    queryAudit: (filter: AuditFilter) => ({
      async *[Symbol.asyncIterator]() {
        const events = await serial(async () =>
          [...audit].sort((a, b) => a.at - b.at || Number(a.id) - Number(b.id)),
        );
        for (const event of events) {
          if (filter.since !== undefined && event.at < filter.since) continue;
          if (filter.until !== undefined && event.at >= filter.until) continue;
          if (filter.ticketId !== undefined && event.ticketId !== filter.ticketId) continue;
          if (filter.type !== undefined && event.type !== filter.type) continue;
          yield event;
        }
      },
    }),
    getSuppression: (destination) => serial(async () => suppressions.get(destination)),
    listSuppressions: ({ limit, cursor }) =>
      serial(async () => {
        const size = pageSize(limit);
        const after = [...suppressions.values()]
          .filter((entry) => cursor === undefined || entry.destination > cursor)
          .sort((a, b) => (a.destination < b.destination ? -1 : 1));
        const items = after.slice(0, size);
        return { items, nextCursor: after.length > size ? items.at(-1)?.destination : undefined };
      }),
    close: async () => {
      closed = true;
    },
  };
}

/**
 * The row as the store keeps it: its fields copied one by one in a literal, as the SQL stores keep
 * their columns (a field the row type does not have is not kept). A literal of known fields costs a
 * fraction of `merged()`, which adds each field to an empty object in turn.
 */
function storedOutbound(row: Omit<OutboundRow, "id">, id: string): OutboundRow {
  return {
    attempts: row.attempts,
    leaseUntil: row.leaseUntil,
    deliveredAt: row.deliveredAt,
    receiptId: row.receiptId,
    templateVersion: row.templateVersion,
    catalogVersion: row.catalogVersion,
    key: row.key,
    ticketId: row.ticketId,
    runId: row.runId,
    template: row.template,
    message: row.message,
    status: row.status,
    createdAt: row.createdAt,
    bodySha256: row.bodySha256,
    id,
  };
}

/** The audit event as the store keeps it: see storedOutbound. */
function storedEvent(event: Omit<AuditEvent, "id">, id: string): AuditEvent {
  return {
    at: event.at,
    type: event.type,
    ticketId: event.ticketId,
    runId: event.runId,
    template: event.template,
    outcome: event.outcome,
    reason: event.reason,
    key: event.key,
    actor: event.actor,
    data: event.data,
    id,
  };
}

/** Refuses a change naming a field the SQL stores have no column to change for, as they do. */
function refuseUnchangeable(table: string, change: object, columns: Readonly<Record<string, string>>): void {
  const field = unchangeableField(change, columns);
  if (field !== undefined)
    throw new FormletterError("store_invalid", `memoryStore: ${table}.${field} cannot be changed`);
}
