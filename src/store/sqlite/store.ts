import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type Database from "better-sqlite3";
import { FormletterError, isStoreUnavailable, StoreUnavailableError } from "../../core/errors.js";
import { merged } from "../../core/merged.js";
import { requirePeer } from "../../core/peer-dependency.js";
import { pageSize, statusesOf } from "../filters.js";
import { firstWholeHour } from "../minute-series.js";
import {
  auditEventFromRow,
  type JsonColumn,
  outboundFromRow,
  outboundUpdatable,
  queueItemFromRow,
  queueUpdatable,
  type Row,
  resultOf,
  storedResult,
  suppressionFromRow,
} from "../rows.js";
import {
  type AuditFilter,
  minuteOf,
  type OutboundRow,
  type QueueFilter,
  type QueueItem,
  type QueuePage,
  type Store,
  type StoreTransaction,
  type Suppression,
  type TransactionHooks,
} from "../store.js";
import { endLease, leaseTransaction } from "../transaction-lease.js";
import { walCheckpointer } from "./checkpointer.js";
import { migrations, schemaVersion } from "./migrations.js";
import { type SharedSync, sharedSync } from "./shared-sync.js";
import { type WalFileSystem, walFile } from "./wal-file.js";

/** Options of {@link sqliteStore}. */
export interface SqliteStoreOptions {
  /** How long to wait for another process's write lock before failing. @default 5000 */
  readonly busyTimeoutMs?: number;
  /**
   * Where each commit is synced to disk. Both are durable: no promise of the store resolves before
   * every commit it wrote or could have read is on disk.
   *
   * - `"off-loop"`: `synchronous=NORMAL`, and after each commit an fdatasync of the `-wal` file in
   *   libuv's thread pool, shared by every commit that finished before it started. The event loop keeps
   *   running (parsing requests, running the next transaction) while the disk syncs. A transaction
   *   whose caller says nothing else waits (the outbox, one call at a time) is synced on the event loop
   *   instead, which costs less than the hand-off.
   * - `"in-loop"`: `synchronous=FULL`: SQLite syncs inside `COMMIT`, and the event loop waits for it.
   *
   * @default "off-loop"
   */
  readonly commitSync?: "off-loop" | "in-loop";
}

/** How the store reaches the disk; tests pass their own file system to watch the syncs. */
export interface SqliteStoreInternals {
  readonly walFileSystem?: WalFileSystem;
}

/**
 * The embedded store: one SQLite file (better-sqlite3) in WAL mode; a transaction's promise resolves
 * once it is on disk. Several processes may share the file; writes take the file's write lock
 * (`BEGIN IMMEDIATE`), so limits and idempotency are exact across them.
 *
 * By default the sync runs off the event loop (see {@link SqliteStoreOptions.commitSync}), and is as
 * durable as `synchronous=FULL`: in WAL mode, FULL differs from NORMAL only by one sync of the WAL after
 * each commit, and that is the sync this store runs before it hands back the transaction's result.
 *
 * @example
 * import { sqliteStore } from "formletter/sqlite";
 * const store = sqliteStore(".formletter/outbox.db");
 */
export function sqliteStore(file: string, options: SqliteStoreOptions = {}): Store {
  return openSqliteStore(file, options);
}

/** {@link sqliteStore}, with the file system its syncs go through. */
export function openSqliteStore(
  file: string,
  options: SqliteStoreOptions = {},
  internals: SqliteStoreInternals = {},
): Store {
  if (typeof file !== "string" || file === "") {
    throw new FormletterError("store_invalid", 'sqliteStore: pass a file path, e.g. ".formletter/outbox.db"');
  }
  const commitSync = options.commitSync ?? "off-loop";
  if (commitSync !== "off-loop" && commitSync !== "in-loop") {
    throw new FormletterError(
      "store_invalid",
      `sqliteStore: commitSync must be "off-loop" (the default) or "in-loop", not ${JSON.stringify(commitSync)}`,
    );
  }
  const SqliteDatabase = requirePeer<typeof Database>(
    "better-sqlite3",
    "the SQLite store (formletter/sqlite)",
  );
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new SqliteDatabase(file);
  let offLoop = false;
  try {
    // The busy timeout first: switching to WAL and migrating both wait for other processes opening the file.
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    const journal = retryBusy(() => db.pragma("journal_mode = WAL", { simple: true }));
    // NORMAL only where the WAL sync below makes it durable: a file SQLite could not put in WAL mode
    // (":memory:" has no file) syncs in COMMIT, as FULL does.
    offLoop = commitSync === "off-loop" && journal === "wal";
    db.pragma(offLoop ? "synchronous = NORMAL" : "synchronous = FULL");
    migrate(db, file);
  } catch (error) {
    db.close();
    throw error;
  }

  const statement = cachedStatements(db);
  const lock = fileLock(file);
  let closed = false;
  // A failed fsync may have dropped the written pages it was to flush, and a later one can succeed without
  // them: after one, the store refuses all work (as PostgreSQL stops) rather than build on lost writes.
  let syncFailure: unknown;
  const wal = offLoop ? walFile(file, internals.walFileSystem) : undefined;
  // SQLite's automatic checkpoint runs inside a COMMIT and syncs the WAL and the database there, on the
  // event loop, whatever `synchronous` says. With syncs off the loop, a worker thread checkpoints instead;
  // the automatic one stays as a backstop far above its usual 1,000 pages, and returns if the worker fails.
  const checkpoints = offLoop
    ? walCheckpointer(file, () => {
        if (db.open) db.pragma(`wal_autocheckpoint = ${defaultAutocheckpoint}`);
      })
    : undefined;
  if (checkpoints !== undefined) db.pragma(`wal_autocheckpoint = ${backstopAutocheckpoint}`);
  const commits =
    wal === undefined
      ? undefined
      : sharedSync(() =>
          wal.sync().catch((error: unknown) => {
            syncFailure ??= error;
            throw syncError(error, file);
          }),
        );
  // Every use of the connection goes through one chain per file and process: an open transaction is
  // never interleaved, and two stores on one file in one process never wait on each other's write lock
  // (better-sqlite3 waits synchronously, which would block the very event loop that would release it).
  // With syncs off the loop, each use then waits for a sync that started after it: its result is never
  // handed back before what it wrote, or read of others' commits, is on disk. The sync is asked for
  // before the chain moves on, so close() finds every sync it must wait for.
  const serial = <T>(work: () => Promise<T>, syncOnLoop?: () => boolean): Promise<T> => {
    let synced: Promise<void> | undefined;
    const done = lock(async () => {
      if (closed) {
        throw new StoreUnavailableError(`sqliteStore: ${file} is closed`, { retryable: false });
      }
      if (syncFailure !== undefined) throw refusedAfterSyncFailure(syncFailure, file);
      try {
        return await work();
      } catch (error) {
        throw unavailable(error, file) ?? error;
      } finally {
        synced = commits === undefined ? undefined : syncAfter(syncOnLoop);
      }
    });
    return commits === undefined ? done : afterSync(done, () => synced);
  };

  // The sync a use of the connection waits for: on the event loop when its caller allows it (see
  // TransactionHooks.syncOnLoop) and no other use of the file is queued, else shared in the thread pool.
  // Either starts after the use ended, so covers what it wrote or read.
  const syncAfter = (syncOnLoop: (() => boolean) | undefined): Promise<void> => {
    const shared = commits as SharedSync;
    if (syncOnLoop?.() !== true || lock.queued() > 0) return shared.request();
    try {
      if (wal?.syncNow() === true) return settledSync;
    } catch (error) {
      syncFailure ??= error;
      return Promise.reject(syncError(error, file));
    }
    return shared.request();
  };

  // The messages of the outbound rows this transaction added, by id: a reservation of one of them
  // leaves its message out (see storedResult).
  const outboundMessages = new Map<string, unknown>();
  // The keys of the outbound rows this transaction added, by id: a reservation of one of them is filed
  // under its row (see reservationName).
  const outboundKeys = new Map<string, string>();
  // The keys this transaction looked up and found reserved neither way: reserve() need not look again
  // (the transaction holds the write lock, and only reserve() adds reservations).
  const absentKeys = new Set<string>();
  const reservationSql =
    "SELECT r.result, o.message FROM reservations r LEFT JOIN outbound o ON o.id = CAST(r.result ->> '$.outboundId' AS INTEGER) AND r.result ->> '$.messageIn' = 'outbound' WHERE r.key = ?";
  const reservationStatement = statement(reservationSql);
  const reservationOf = (name: string) => reservationStatement.get(name) as Row | undefined;
  const heldKey = statement("SELECT id FROM outbound WHERE key = ?");
  const reservationUnderRow = (key: string) => {
    const held = heldKey.get(key) as { id: number } | undefined;
    return held === undefined ? undefined : reservationOf(reservationName(String(held.id)));
  };
  // Both ways in one statement: under the key itself first, else under the outbound row holding it
  // (reservationName's form, which printf's zero-padding gives for the row's id).
  const reservationEither = statement(
    `${reservationSql} UNION ALL ${reservationSql.replace("r.key = ?", "r.key = (SELECT '@outbound ' || printf('%016d', id) FROM outbound WHERE key = ?)")} LIMIT 1`,
  );
  const countsStatement = statement(
    `SELECT
       (SELECT COUNT(*) FROM reservations WHERE template = ? AND ticket_id = ?) AS ticket,
       (SELECT COALESCE(SUM(n), 0) FROM send_counts WHERE template = ? AND minute >= ? AND minute < ?)
         + (SELECT COALESCE(SUM(n), 0) FROM send_counts_hourly WHERE template = ? AND hour >= ?) AS day,
       (SELECT COUNT(*) FROM reservations WHERE run_id = ?) AS run`,
  );
  const insertReservation = statement(
    "INSERT INTO reservations (key, template, ticket_id, run_id, at, result) VALUES (?, ?, ?, ?, ?, ?)",
  );
  // The sends this transaction reserved, by template, then minute: written as one row change each at
  // commit (a group's sends share a minute), not one upsert and one hourly trigger a send. countSends
  // adds them to what the table holds.
  const sendsToCount = new Map<string, Map<number, number>>();
  const addSendCount = statement(
    "INSERT INTO send_counts (template, minute, n) VALUES (?, ?, ?) ON CONFLICT (template, minute) DO UPDATE SET n = n + excluded.n",
  );
  const writeSendCounts = () => {
    for (const [template, minutes] of sendsToCount)
      for (const [minute, n] of minutes) addSendCount.run(template, minute, n);
    sendsToCount.clear();
  };
  const insertAudit = statement(
    "INSERT INTO audit (at, type, ticket_id, run_id, template, outcome, reason, key, actor, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertOutbound = statement(
    `INSERT INTO outbound (key, ticket_id, run_id, template, message, status, attempts, created_at, lease_until, delivered_at, receipt_id, body_sha256, template_version, catalog_version)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const tx: StoreTransaction = {
    findResult: async (key) => {
      const row = reservationEither.get(key, key) as Row | undefined;
      if (row === undefined) {
        absentKeys.add(key);
        return undefined;
      }
      return resultOf(
        JSON.parse(row.result as string),
        row.message === null ? undefined : JSON.parse(row.message as string),
      );
    },
    countSends: async ({ template, ticketId, runId, since }) => {
      const from = minuteOf(since);
      const hour = firstWholeHour(from);
      const row = countsStatement.get(
        template,
        ticketId,
        template,
        from,
        hour * 60,
        template,
        hour,
        runId,
      ) as {
        ticket: number;
        day: number;
        run: number;
      };
      let day = row.day;
      const minutes = sendsToCount.get(template);
      if (minutes !== undefined) for (const [minute, n] of minutes) if (minute >= from) day += n;
      return { ticket: row.ticket, day, run: row.run };
    },
    reserve: async (entry) => {
      const { outboundId } = entry.result;
      const filedUnderRow = outboundId !== undefined && outboundKeys.get(outboundId) === entry.key;
      // One reservation a key, whichever way it is filed (the unique index sees only one of the two).
      // A key this transaction found reserved neither way is not looked up again.
      const taken =
        !absentKeys.delete(entry.key) &&
        (filedUnderRow ? reservationOf : reservationUnderRow)(entry.key) !== undefined;
      if (taken)
        throw new FormletterError("store_invalid", `sqliteStore: key ${entry.key} is already reserved`);
      insertReservation.run(
        filedUnderRow ? reservationName(outboundId) : entry.key,
        entry.template,
        entry.ticketId,
        entry.runId,
        entry.at,
        JSON.stringify(storedResult(entry.result, outboundMessages)),
      );
      // Per minute only, at commit: triggers add each minute's change to its hour (migration 6).
      const minute = minuteOf(entry.at);
      let minutes = sendsToCount.get(entry.template);
      if (minutes === undefined) {
        minutes = new Map();
        sendsToCount.set(entry.template, minutes);
      }
      minutes.set(minute, (minutes.get(minute) ?? 0) + 1);
      for (const { group, currency, units } of entry.spend ?? []) {
        statement(
          "INSERT INTO spend (group_name, currency, minute, units) VALUES (?, ?, ?, ?) ON CONFLICT (group_name, currency, minute) DO UPDATE SET units = units + excluded.units",
        ).run(group, currency, minute, units);
      }
    },
    sumSpend: async ({ group, currency, since }) => {
      const row = statement(
        `SELECT
           (SELECT COALESCE(SUM(units), 0) FROM spend WHERE group_name = ? AND currency = ? AND minute >= ? AND minute < ?)
             + (SELECT COALESCE(SUM(units), 0) FROM spend_hourly WHERE group_name = ? AND currency = ? AND hour >= ?) AS units`,
      ).get(...windowFrom([group, currency], minuteOf(since))) as { units: number };
      return row.units;
    },
    addContact: async ({ destination, template, at }) =>
      statement(
        "INSERT INTO contacts (destination, template, at) VALUES (?, ?, ?) ON CONFLICT (destination) DO NOTHING",
      ).run(destination, template, at).changes === 1,
    hasContact: async (destination) =>
      statement("SELECT 1 FROM contacts WHERE destination = ?").get(destination) !== undefined,
    addDeliveryEvent: async ({ id, at }) =>
      statement("INSERT INTO delivery_events (id, at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING").run(id, at)
        .changes === 1,
    findOutboundByReceipt: async (receiptId) =>
      outboundOf(
        statement("SELECT * FROM outbound WHERE receipt_id = ? ORDER BY id DESC LIMIT 1").get(receiptId) as
          | Row
          | undefined,
      ),
    addSuppression: async (entry) =>
      statement(
        "INSERT INTO suppressions (destination, channel, cause, provider, at, audit_id) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (destination) DO NOTHING",
      ).run(entry.destination, entry.channel, entry.cause, entry.provider, entry.at, entry.auditId)
        .changes === 1,
    getSuppression: async (destination) =>
      suppressionFromRow(
        statement("SELECT * FROM suppressions WHERE destination = ?").get(destination) as Row | undefined,
      ),
    removeSuppression: async (destination) =>
      suppressionFromRow(
        statement("DELETE FROM suppressions WHERE destination = ? RETURNING *").get(destination) as
          | Row
          | undefined,
      ),
    appendAudit: async (event) => {
      const info = insertAudit.run(
        event.at,
        event.type,
        event.ticketId ?? null,
        event.runId ?? null,
        event.template ?? null,
        event.outcome ?? null,
        event.reason ?? null,
        event.key ?? null,
        event.actor,
        JSON.stringify(event.data),
      );
      return String(info.lastInsertRowid);
    },
    addOutbound: async (row) => {
      const info = insertOutbound.run(
        row.key,
        row.ticketId,
        row.runId,
        row.template,
        JSON.stringify(row.message),
        row.status,
        row.attempts,
        row.createdAt,
        row.leaseUntil ?? null,
        row.deliveredAt ?? null,
        row.receiptId ?? null,
        row.bodySha256,
        row.templateVersion ?? null,
        row.catalogVersion ?? null,
      );
      const id = String(info.lastInsertRowid);
      outboundMessages.set(id, row.message);
      outboundKeys.set(id, row.key);
      return id;
    },
    getOutbound: async (id) =>
      outboundOf(statement("SELECT * FROM outbound WHERE id = ?").get(id) as Row | undefined),
    updateOutbound: async (id, change) => update(statement, "outbound", id, change, outboundUpdatable),
    addQueueItem: async (item) => {
      const info = statement(
        `INSERT INTO queue (status, reason, ticket_id, run_id, template, detail, key, draft, note, created_at, claimed_by, claimed_at, closed_by, closed_at, resolution, close_note, audit_id, outbound_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        item.status,
        item.reason,
        item.ticketId,
        item.runId,
        item.template ?? null,
        item.detail,
        item.key ?? null,
        item.draft === undefined ? null : JSON.stringify(item.draft),
        item.note ?? null,
        item.createdAt,
        item.claimedBy ?? null,
        item.claimedAt ?? null,
        item.closedBy ?? null,
        item.closedAt ?? null,
        item.resolution ?? null,
        item.closeNote ?? null,
        item.auditId,
        item.outboundId ?? null,
      );
      return String(info.lastInsertRowid);
    },
    getQueueItem: async (id) =>
      queueItemOf(statement("SELECT * FROM queue WHERE id = ?").get(id) as Row | undefined),
    updateQueueItem: async (id, change) => update(statement, "queue", id, change, queueUpdatable),
  };

  const begin = statement("BEGIN IMMEDIATE");
  const commit = statement("COMMIT");
  const transaction = <T>(work: (tx: StoreTransaction) => Promise<T>, hooks?: TransactionHooks): Promise<T> =>
    serial(async () => {
      begin.run();
      outboundMessages.clear();
      outboundKeys.clear();
      absentKeys.clear();
      sendsToCount.clear();
      let committing = false;
      try {
        // The work's calls end with it: a write it left running is refused, never taken for the next one's.
        const leased = leaseTransaction(tx);
        let result: T;
        try {
          result = await work(leased);
        } finally {
          endLease(leased);
        }
        writeSendCounts();
        committing = true;
        commit.run();
        // Committed, not yet synced (the sync is asked for as this returns): with syncs off the loop,
        // the caller may start its next transaction's statements while this one syncs.
        if (offLoop) {
          checkpoints?.committed();
          hooks?.committed?.();
        }
        return result;
      } catch (error) {
        // A COMMIT that failed leaves the transaction open: rolled back here, nothing was written. One
        // that failed to reach the disk (an I/O error) may have been written in part of the journal.
        if (db.inTransaction) statement("ROLLBACK").run();
        else if (committing && unavailable(error, file) !== undefined)
          throw unavailable(error, file, "unknown");
        throw error;
      }
    }, hooks?.syncOnLoop);

  return {
    name: "sqlite",
    transaction,
    claimDue: ({ now, leaseUntil, limit, id }) =>
      transaction(async () => {
        const rows = (
          id === undefined
            ? statement(
                "SELECT * FROM outbound WHERE status IN ('pending', 'delivering') AND (lease_until IS NULL OR lease_until <= ?) ORDER BY id LIMIT ?",
              ).all(now, limit)
            : statement(
                "SELECT * FROM outbound WHERE status IN ('pending', 'delivering') AND (lease_until IS NULL OR lease_until <= ?) AND id = ?",
              ).all(now, id)
        ) as Row[];
        const lease = statement("UPDATE outbound SET status = 'delivering', lease_until = ? WHERE id = ?");
        return rows.map((row) => {
          lease.run(leaseUntil, row.id);
          return outboundOf(merged(row, { lease_until: leaseUntil })) as OutboundRow;
        });
      }),
    getQueueItem: (id) => serial(() => tx.getQueueItem(id)),
    getOutbound: (id) => serial(() => tx.getOutbound(id)),
    getSuppression: (destination) => serial(() => tx.getSuppression(destination)),
    listSuppressions: ({ limit, cursor }) =>
      serial(async () => {
        const size = pageSize(limit);
        const rows = statement(
          "SELECT * FROM suppressions WHERE destination > ? ORDER BY destination LIMIT ?",
        ).all(cursor ?? "", size + 1) as Row[];
        const items = rows.slice(0, size).map((row) => suppressionFromRow(row) as Suppression);
        return { items, nextCursor: rows.length > size ? items.at(-1)?.destination : undefined };
      }),
    listQueue: (filter: QueueFilter) =>
      serial(async (): Promise<QueuePage> => {
        const limit = pageSize(filter.limit);
        const where = ["id > ?"];
        const params: unknown[] = [filter.cursor === undefined ? 0 : Number(filter.cursor) || 0];
        const statuses = statusesOf(filter.status);
        if (statuses !== undefined) {
          where.push(`status IN (${[...statuses].map(() => "?").join(", ") || "NULL"})`);
          params.push(...statuses);
        }
        for (const [column, value] of [
          ["reason", filter.reason],
          ["template", filter.template],
          ["ticket_id", filter.ticketId],
        ] as const) {
          if (value !== undefined) {
            where.push(`${column} = ?`);
            params.push(value);
          }
        }
        const rows = statement(`SELECT * FROM queue WHERE ${where.join(" AND ")} ORDER BY id LIMIT ?`).all(
          ...params,
          limit + 1,
        ) as Row[];
        const items = rows.slice(0, limit).map((row) => queueItemOf(row) as QueueItem);
        return { items, nextCursor: rows.length > limit ? items.at(-1)?.id : undefined };
      }),
    queryAudit: (filter: AuditFilter) => ({
      async *[Symbol.asyncIterator]() {
        // Keyset pages in (at, id) order: memory stays flat however long the log is.
        let after: { at: number; id: number } | undefined;
        for (;;) {
          const where: string[] = [];
          const params: unknown[] = [];
          const add = (clause: string, ...values: unknown[]) => {
            where.push(clause);
            params.push(...values);
          };
          if (after !== undefined) add("(at > ? OR (at = ? AND id > ?))", after.at, after.at, after.id);
          if (filter.since !== undefined) add("at >= ?", filter.since);
          if (filter.until !== undefined) add("at < ?", filter.until);
          if (filter.ticketId !== undefined) add("ticket_id = ?", filter.ticketId);
          if (filter.type !== undefined) add("type = ?", filter.type);
          const sql = `SELECT * FROM audit ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY at, id LIMIT 500`;
          const page = await serial(async () => statement(sql).all(...params) as Row[]);
          for (const row of page) yield auditEventOf(row);
          const last = page.at(-1);
          if (page.length < 500 || last === undefined) return;
          after = { at: last.at as number, id: last.id as number };
        }
      },
    }),
    close: async () => {
      await lock(async () => {
        if (closed) throw new StoreUnavailableError(`sqliteStore: ${file} is closed`, { retryable: false });
        closed = true;
        // The worker's connection first: the store's, closing last, checkpoints and removes the WAL.
        await checkpoints?.close();
        db.close();
      });
      // Transactions that committed before the close still wait for their sync, through the WAL handle.
      await commits?.drained();
      await wal?.close();
    },
  };
}

/**
 * The parameters of a sum since minute `from` of the rows of one series (`series`: its key columns):
 * the minutes from `from` up to the next whole hour one by one, then whole hours, each hour's row
 * holding its 60 minutes. At most 59 minutes and 24 hours for a day, however steady the sending.
 */
function windowFrom(series: readonly (string | number)[], from: number): (string | number)[] {
  const first = firstWholeHour(from);
  return [...series, from, first * 60, ...series, first];
}

/**
 * The name a send's reservation is filed under: its outbound row's, not its key. The key is a hash, so
 * an index entry under it lands on a page of its own; the outbound row's unique key index already holds
 * one such entry a send, and a second, for the reservation, was about a fifth of the bytes each group
 * committed. Names under the row grow with its id, so a group's entries share the index's last page.
 * findResult and reserve look a key up both ways. No key the outbox makes starts with "@".
 */
function reservationName(outboundId: string): string {
  return `@outbound ${outboundId.padStart(16, "0")}`;
}

const settledSync = Promise.resolve();

/** `done`'s result once `synced()` (the sync its work asked for) resolved; its error after the sync. */
async function afterSync<T>(done: Promise<T>, synced: () => Promise<void> | undefined): Promise<T> {
  let result: T;
  try {
    result = await done;
  } catch (error) {
    // A failed transaction waits too: its error may tell of a commit it saw (a key already taken).
    await synced()?.catch(() => undefined);
    throw error;
  }
  await synced();
  return result;
}

// Pages of WAL: SQLite's default, and the backstop while a worker checkpoints (about 40 MB of 4 KB pages).
const defaultAutocheckpoint = 1000;
const backstopAutocheckpoint = 10_000;

/** The error of the transactions a failed WAL sync was to make durable. */
function syncError(error: unknown, file: string): StoreUnavailableError {
  return new StoreUnavailableError(
    `sqliteStore: syncing ${file}-wal to disk failed (${describe(error)}); the transaction committed but may not be on disk, and the store refuses further work: check the disk, then open the file again`,
    { retryable: false, committed: "unknown", cause: error },
  );
}

/** The error of every use of the store after a WAL sync failed. */
function refusedAfterSyncFailure(error: unknown, file: string): StoreUnavailableError {
  return new StoreUnavailableError(
    `sqliteStore: ${file} refuses work since syncing its WAL to disk failed (${describe(error)}); nothing of this transaction was written: check the disk, then open the file again`,
    { retryable: false, committed: false, cause: error },
  );
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message;
}

// SQLite result codes (primary, as better-sqlite3 names them, or extended: SQLITE_IOERR_WRITE…) that
// mean the file cannot be used now — locked by another connection past the busy timeout, unreadable,
// unwritable, on a full or failing disk — not that the statement was wrong.
const unavailableCodes =
  /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|READONLY|FULL|PROTOCOL|NOTADB|CORRUPT|PERM|AUTH)(_|$)/;

/** The store-unavailable error for a SQLite error that means the file is out of reach, else undefined. */
function unavailable(
  error: unknown,
  file: string,
  committed: false | "unknown" = false,
): StoreUnavailableError | undefined {
  if (isStoreUnavailable(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !unavailableCodes.test(code)) return undefined;
  const what =
    committed === "unknown"
      ? "the transaction may or may not have been written"
      : "nothing of the transaction was written";
  return new StoreUnavailableError(
    `sqliteStore: ${file} cannot be used now (${code}); ${what}: ${(error as Error).message}`,
    { retryable: true, committed, cause: error },
  );
}

const fileChains = new Map<string, { tail: Promise<unknown>; users: number }>();

/** Serialises work on one database file within this process; `queued()` counts the uses not started. */
function fileLock(file: string): (<T>(work: () => Promise<T>) => Promise<T>) & { queued(): number } {
  const key = file === ":memory:" ? `:memory:${Math.random()}` : resolve(file);
  const lock = <T>(work: () => Promise<T>): Promise<T> => {
    const entry = fileChains.get(key) ?? { tail: Promise.resolve(), users: 0 };
    entry.users += 1;
    fileChains.set(key, entry);
    const result = entry.tail.then(work, work);
    entry.tail = result.catch(() => undefined);
    void entry.tail.then(() => {
      entry.users -= 1;
      if (entry.users === 0 && fileChains.get(key) === entry) fileChains.delete(key);
    });
    return result;
  };
  // Called from within a use: the others on the file (a use just ended may count until its turn ends).
  return Object.assign(lock, { queued: () => Math.max(0, (fileChains.get(key)?.users ?? 1) - 1) });
}

function migrate(db: Database.Database, file: string): void {
  const newer = (version: number) =>
    new FormletterError(
      "store_invalid",
      `sqliteStore: ${file} has schema version ${version}, newer than this formletter's ${schemaVersion}; upgrade formletter to open it`,
    );
  const seen = db.pragma("user_version", { simple: true }) as number;
  if (seen > schemaVersion) throw newer(seen);
  if (seen === schemaVersion) return;
  // Read the version again under the write lock: another process may have migrated meanwhile.
  retryBusy(() =>
    db
      .transaction(() => {
        const version = db.pragma("user_version", { simple: true }) as number;
        if (version > schemaVersion) throw newer(version);
        for (let next = version; next < schemaVersion; next++) db.exec(migrations[next] as string);
        db.pragma(`user_version = ${schemaVersion}`);
      })
      .immediate(),
  );
}

/**
 * Runs `work`, retrying while SQLite answers SQLITE_BUSY without waiting (it does so for the journal-mode
 * switch and for lock upgrades that could deadlock), for up to about five seconds.
 */
function retryBusy<T>(work: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return work();
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || attempt >= 100) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.floor(Math.random() * 40));
    }
  }
}

function cachedStatements(db: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  return (sql: string): Database.Statement => {
    let prepared = cache.get(sql);
    if (prepared === undefined) {
      prepared = db.prepare(sql);
      cache.set(sql, prepared);
    }
    return prepared;
  };
}

/** Changes one row's fields (every delivery marks its row: no pairs copied, no arguments spread). */
function update(
  statement: (sql: string) => Database.Statement,
  table: string,
  id: string,
  change: object,
  columns: Record<string, string>,
): void {
  const fields = Object.keys(change);
  if (fields.length === 0) return;
  const params: unknown[] = [];
  let sets = "";
  for (const field of fields) {
    const column = Object.hasOwn(columns, field) ? columns[field] : undefined;
    if (column === undefined)
      throw new FormletterError("store_invalid", `sqliteStore: ${table}.${field} cannot be changed`);
    sets = sets === "" ? `${column} = ?` : `${sets}, ${column} = ?`;
    const value = (change as Record<string, unknown>)[field];
    params.push(
      value === undefined
        ? null
        : typeof value === "object" && value !== null
          ? JSON.stringify(value)
          : value,
    );
  }
  params.push(id);
  const info = statement(`UPDATE ${table} SET ${sets} WHERE id = ?`).run(params);
  if (info.changes !== 1) throw new FormletterError("store_invalid", `sqliteStore: no ${table} row ${id}`);
}

// SQLite keeps JSON columns as text.
const text: JsonColumn = (value) => JSON.parse(value as string);
const outboundOf = (row: Row | undefined) => outboundFromRow(row, text);
const queueItemOf = (row: Row | undefined) => queueItemFromRow(row, text);
const auditEventOf = (row: Row) => auditEventFromRow(row, text);
