import type pg from "pg";
import type { Pool } from "pg";
import { FormletterError, isFormletterError } from "../../core/errors.js";
import { merged } from "../../core/merged.js";
import { requirePeer } from "../../core/peer-dependency.js";
import { pageSize, statusesOf } from "../filters.js";
import type {
  AuditFilter,
  OutboundRow,
  QueueFilter,
  QueuePage,
  Store,
  StoreTransaction,
  Suppression,
} from "../store.js";
import { endLease, leaseTransaction } from "../transaction-lease.js";
import { Connection, type Statement } from "./connection.js";
import { IdStock } from "./ids.js";
import { KnownCounts } from "./known-counts.js";
import { migrate } from "./migrate.js";
import { auditEventOf, idParam, outboundOf, queueItemOf, type Row, suppressionOf } from "./rows.js";
import { statementsFor } from "./statements.js";
import { transactionOn } from "./transaction.js";
import { isConnectionError, isContention, isStaleRead, StoreUnavailableError } from "./unavailable.js";

/** Where the database is: a connection string (the store makes and owns its pool), or your own `pg.Pool`. */
export type PostgresConnection =
  | {
      /** e.g. "postgres://app@db.internal:5432/support" */
      readonly connectionString: string;
      /** Connections in the store's pool. @default 10 */
      readonly max?: number;
    }
  | {
      /**
       * A pool you made and will end yourself. Give it an "error" listener (idle connections report a
       * database restart there), and `pipeline: true` for the fewest round trips (`pg` ≥ 8.20).
       */
      readonly pool: Pool;
    };

/** Options of {@link postgresStore}. */
export interface PostgresStoreOptions {
  /**
   * The schema that holds the store's tables: several stores (catalogs, environments) can share one
   * database, each in its own schema. Lower-case letters, digits and `_`, not starting with `pg_`.
   * @default "formletter"
   */
  readonly schema?: string;
  /**
   * How long a call keeps trying while the database cannot be reached (a restart, a fail-over) before it
   * fails with a retryable {@link StoreUnavailableError}. A transaction is tried again only if its
   * connection broke before COMMIT was sent, so nothing is written twice. 0 fails at once.
   * @default 5000
   */
  readonly retryUnavailableMs?: number;
}

/** A store on PostgreSQL. It connects and migrates on first use; `ready()` does it now. */
export interface PostgresStore extends Store {
  /** The schema this store keeps its tables in. */
  readonly schema: string;
  /**
   * Connects and applies missing migrations, once; later calls resolve at once. Optional: every other
   * call does the same first. Call it at start-up to fail there (store_invalid, store_unavailable).
   */
  ready(): Promise<void>;
}

const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The store for several instances: every decision (idempotency key, limit counts, audit event, outbound
 * row or queue item) commits in one Postgres transaction, so limits and idempotency are exact however
 * many processes or hosts handle tickets; queue claims use `FOR UPDATE SKIP LOCKED`.
 *
 * Returns at once: the store connects and migrates on first use, so `createOutbox` stays synchronous.
 * Two instances opening a new schema at the same moment take turns (advisory lock). A schema written by
 * a newer formletter is refused with `store_invalid`; a database out of reach fails calls with a
 * retryable {@link StoreUnavailableError} once `retryUnavailableMs` has passed. A transaction's work may
 * run again after its connection broke before COMMIT, or after a deadlock: it must only use `tx`.
 *
 * @example
 * import { postgresStore } from "formletter/postgres";
 * const store = postgresStore({ connectionString: process.env.DATABASE_URL }, { schema: "support_outbox" });
 * await store.ready(); // optional: fail at start-up rather than on the first handle()
 */
export function postgresStore(
  connection: PostgresConnection,
  options: PostgresStoreOptions = {},
): PostgresStore {
  const schema = options.schema ?? "formletter";
  if (typeof schema !== "string" || !schemaPattern.test(schema) || schema.startsWith("pg_")) {
    throw new FormletterError(
      "store_invalid",
      `postgresStore: schema ${JSON.stringify(schema)} is not a valid name; use lower-case letters, digits and _ (at most 63, not starting with a digit or pg_), e.g. "formletter"`,
    );
  }
  const retryMs = options.retryUnavailableMs ?? 5000;
  if (typeof retryMs !== "number" || !(retryMs >= 0))
    throw new FormletterError("store_invalid", "postgresStore: retryUnavailableMs must be a number ≥ 0");
  const pool = poolOf(connection);
  const owned = !("pool" in connection && connection.pool !== undefined);
  const statements = statementsFor(schema);
  const ids = new IdStock(statements);
  const known = new KnownCounts();
  let closed = false;
  let opening: Promise<void> | undefined;
  // When calls first found the database out of reach; calls retry until `retryMs` after it, then fail
  // at once, so a long outage does not stall every queued call for the whole window again.
  let outageSince: number | undefined;

  const closedError = (cause?: unknown) =>
    new StoreUnavailableError(`postgresStore: the store (schema "${schema}") is closed`, {
      retryable: false,
      cause,
    });

  const open = (): Promise<void> =>
    (opening ??= (async () => {
      const conn = new Connection(await pool.connect());
      try {
        await migrate(conn, schema);
      } finally {
        conn.release();
      }
    })().catch((error: unknown) => {
      // A database out of reach may come back: the next call tries again. A schema that is too new does not.
      if (isConnectionError(error)) {
        opening = undefined;
        throw error;
      }
      if (isFormletterError(error)) throw error;
      throw new FormletterError(
        "store_invalid",
        `postgresStore: cannot open schema "${schema}": ${brief(error)}`,
        { cause: error },
      );
    }));

  /** Runs `body` on a pooled connection, retrying lost connections and deadlocks as described above. */
  const withConnection = async <T>(body: (conn: Connection) => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      if (closed) throw closedError();
      let conn: Connection | undefined;
      try {
        await open();
        conn = new Connection(await pool.connect());
        const result = await body(conn);
        outageSince = undefined;
        return result;
      } catch (error) {
        if (closed) throw closedError(error);
        if (conn?.broken || isConnectionError(error)) {
          const now = Date.now();
          outageSince ??= now;
          const committed = conn?.committing ? "unknown" : false;
          if (committed === false && now - outageSince < retryMs) {
            await sleep(backoff(attempt));
            continue;
          }
          throw new StoreUnavailableError(
            committed === "unknown"
              ? `postgresStore: the connection broke while committing; the transaction may or may not have been written (${brief(error)})`
              : `postgresStore: the database cannot be reached; nothing was written (${brief(error)})`,
            { retryable: true, committed, cause: error },
          );
        }
        if (isContention(error) && attempt < 4) {
          await sleep(backoff(attempt));
          continue;
        }
        throw error;
      } finally {
        conn?.release();
      }
    }
  };

  const read = <R extends Row>(text: string | Statement, values: unknown[]) =>
    withConnection((conn) => conn.read<R>(text, values));

  // After an answer given without reading turned out wrong (a key taken, a count changed), the next
  // transactions read for real for a while: a burst of duplicates (retries, several instances handling
  // one ticket) would otherwise fail check after check, each a transaction run twice.
  let carefulFor = 0;
  let misses = 0;
  const transaction = <T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> =>
    withConnection(async (conn) => {
      const optimistic = carefulFor === 0;
      if (carefulFor > 0) carefulFor -= 1;
      // Ids for this transaction's writes, drawn now if few are left: before the decision lock is taken.
      await ids.refill(conn, 128);
      for (let again = false; ; again = true) {
        const open = transactionOn(conn, statements, ids, known, optimistic && !again);
        // The work's calls end with it: a write it left running is refused, never buffered for a commit.
        const leased = leaseTransaction(open.tx);
        try {
          const result = await work(leased);
          endLease(leased);
          await open.commit();
          if (optimistic && !again) misses = 0;
          return result;
        } catch (error) {
          endLease(leased);
          await open.rollback();
          if (!again && isStaleRead(conn.firstFailure, optimistic) && !conn.broken) {
            misses = Math.min(misses + 1, 6);
            carefulFor = 2 ** misses;
            conn.reset();
            continue;
          }
          throw error;
        }
      }
    });

  return {
    name: "postgres",
    schema,
    ready: () => withConnection(async () => undefined),
    transaction,
    claimDue: async ({ now, leaseUntil, limit, id }) => {
      let rows: Row[];
      if (id === undefined) {
        rows = await read(statements.claimDue, [now, leaseUntil, Math.max(0, Math.floor(limit))]);
      } else {
        const param = idParam(id);
        rows = param === undefined ? [] : await read(statements.claimOne, [now, leaseUntil, param]);
      }
      // RETURNING gives no order; claims are oldest first.
      // Each row as found (see Store.claimDue): its status before the claim made it "delivering".
      return rows
        .map((row) => outboundOf(merged(row, { status: row.found })) as OutboundRow)
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    },
    getQueueItem: async (id) => {
      const param = idParam(id);
      return param === undefined ? undefined : queueItemOf((await read(statements.getQueueItem, [param]))[0]);
    },
    getOutbound: async (id) => {
      const param = idParam(id);
      return param === undefined ? undefined : outboundOf((await read(statements.getOutbound, [param]))[0]);
    },
    getSuppression: async (destination) =>
      suppressionOf((await read(statements.getSuppression, [destination]))[0]),
    listSuppressions: async ({ limit, cursor }) => {
      const size = pageSize(limit);
      const rows = await read(statements.suppressionPage, [cursor ?? "", size + 1]);
      const items = rows.slice(0, size).map((row) => suppressionOf(row) as Suppression);
      return { items, nextCursor: rows.length > size ? items.at(-1)?.destination : undefined };
    },
    listQueue: async (filter: QueueFilter): Promise<QueuePage> => {
      const limit = pageSize(filter.limit);
      const cursor = Number(filter.cursor);
      const values: unknown[] = [limit + 1, Number.isSafeInteger(cursor) && cursor > 0 ? cursor : 0];
      const where = ["seq > $2"];
      const statuses = statusesOf(filter.status);
      if (statuses !== undefined) {
        values.push([...statuses]);
        where.push(`status = ANY($${values.length}::text[])`);
      }
      for (const [column, value] of [
        ["reason", filter.reason],
        ["template", filter.template],
        ["ticket_id", filter.ticketId],
      ] as const) {
        if (value !== undefined) {
          values.push(value);
          where.push(`${column} = $${values.length}`);
        }
      }
      const rows = await read(statements.queuePage(where.join(" AND ")), values);
      const page = rows.slice(0, limit);
      return {
        items: page.map((row) => queueItemOf(row) as NonNullable<ReturnType<typeof queueItemOf>>),
        nextCursor: rows.length > limit ? String(page.at(-1)?.seq) : undefined,
      };
    },
    queryAudit: (filter: AuditFilter) => ({
      async *[Symbol.asyncIterator]() {
        // Keyset pages in (at, id) order: memory stays flat however long the log is.
        let after: { at: string; id: string } | undefined;
        for (;;) {
          const where: string[] = [];
          const values: unknown[] = [];
          const add = (clause: (n: number) => string, value: unknown) => {
            values.push(value);
            where.push(clause(values.length));
          };
          if (after !== undefined) {
            values.push(after.at, after.id);
            where.push(`(at, id) > ($${values.length - 1}::bigint, $${values.length}::bigint)`);
          }
          if (filter.since !== undefined) add((n) => `at >= $${n}`, filter.since);
          if (filter.until !== undefined) add((n) => `at < $${n}`, filter.until);
          if (filter.ticketId !== undefined) add((n) => `ticket_id = $${n}`, filter.ticketId);
          if (filter.type !== undefined) add((n) => `type = $${n}`, filter.type);
          const page = await read(
            statements.auditPage(where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""),
            values,
          );
          for (const row of page) yield auditEventOf(row);
          const last = page.at(-1);
          if (page.length < 500 || last === undefined) return;
          after = { at: String(last.at), id: String(last.id) };
        }
      },
    }),
    close: async () => {
      if (closed) return;
      closed = true;
      if (owned) await pool.end();
    },
  };
}

function poolOf(connection: PostgresConnection): Pool {
  if (typeof connection !== "object" || connection === null) {
    throw new FormletterError(
      "store_invalid",
      'postgresStore: pass { connectionString: "postgres://…" } or { pool: new pg.Pool(…) }',
    );
  }
  if ("pool" in connection && connection.pool !== undefined) {
    if (typeof connection.pool?.connect !== "function")
      throw new FormletterError("store_invalid", "postgresStore: pool must be a pg.Pool");
    return connection.pool;
  }
  const { connectionString, max = 10 } = connection as { connectionString?: unknown; max?: number };
  if (typeof connectionString !== "string" || connectionString === "") {
    throw new FormletterError(
      "store_invalid",
      'postgresStore: pass { connectionString: "postgres://…" } or { pool: new pg.Pool(…) }',
    );
  }
  const postgres = requirePeer<typeof pg>("pg", "the Postgres store (formletter/postgres)");
  const pool = new postgres.Pool({
    connectionString,
    max,
    // Writes whose replies nobody waits for go out back to back (see Connection).
    pipeline: true,
    keepAlive: true,
    connectionTimeoutMillis: 10_000,
  } as pg.PoolConfig);
  // Idle connections report a database restart here; unheard, the event would end the process. The
  // next call takes a fresh connection.
  pool.on("error", () => undefined);
  return pool;
}

/** Waits before another try: 25 ms doubling to 500 ms, with jitter so instances do not retry in step. */
function backoff(attempt: number): number {
  const ceiling = Math.min(500, 25 * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function brief(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").slice(0, 200);
}
