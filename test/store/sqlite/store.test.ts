import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isFormletterError } from "../../../src/index.js";
import { sqliteStore } from "../../../src/store/sqlite/index.js";
import { migrations, schemaVersion } from "../../../src/store/sqlite/migrations.js";
import type { StoreTransaction } from "../../../src/store/store.js";
import {
  auditEvent,
  collect,
  describeStoreConformance,
  outboundRow,
  queueItem,
  reservation,
  reservationColumns,
  t0,
} from "../conformance.js";

describeStoreConformance("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "formletter-store-"));
  const store = sqliteStore(join(dir, "outbox.db"));
  return {
    store,
    cleanup: async () => {
      await store.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe("sqliteStore", () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "formletter-sqlite-"));
    file = join(dir, "outbox.db");
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** A second, independent connection to the file, as another process would have. */
  /** Whether each hourly row is the sum of its minutes (rounded down to the hour), for counts and spend. */
  function hoursAgainstMinutes() {
    return inspect((db) => {
      const same = (minutes: string, hours: string, keys: string, amount: string) => {
        const hour = "CASE WHEN minute >= 0 THEN minute / 60 ELSE (minute - 59) / 60 END";
        const fromMinutes = db
          .prepare(
            `SELECT ${keys}, ${hour} AS hour, SUM(${amount}) AS amount FROM ${minutes} GROUP BY ${keys}, hour HAVING SUM(${amount}) <> 0 ORDER BY 1, 2, 3`,
          )
          .all();
        const fromHours = db
          .prepare(
            `SELECT ${keys}, hour, ${amount} AS amount FROM ${hours} WHERE ${amount} <> 0 ORDER BY 1, 2, 3`,
          )
          .all();
        return fromMinutes.length > 0 && JSON.stringify(fromMinutes) === JSON.stringify(fromHours);
      };
      return {
        counts: same("send_counts", "send_counts_hourly", "template", "n"),
        spend: same("spend", "spend_hourly", "group_name, currency", "units"),
      };
    });
  }

  function inspect<T>(read: (db: Database.Database) => T): T {
    const db = new Database(file, { readonly: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  }

  it("opens the file in WAL mode and applies the migrations (user_version = current)", async () => {
    const store = sqliteStore(file);
    try {
      expect(inspect((db) => db.pragma("journal_mode", { simple: true }))).toBe("wal");
      expect(schemaVersion).toBeGreaterThanOrEqual(1);
      expect(inspect((db) => db.pragma("user_version", { simple: true }))).toBe(schemaVersion);
      const tables = inspect((db) =>
        (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
          (row) => row.name,
        ),
      );
      expect(tables).toEqual(expect.arrayContaining(["audit", "outbound", "queue", "reservations"]));
    } finally {
      await store.close();
    }
  });

  /** The `synchronous` pragma the store set, and the value in effect, on its own connection. */
  function synchronousOf(open: () => { close(): Promise<void> }) {
    // `synchronous` belongs to a connection, not to the file: a second connection cannot see the
    // store's value, so the test reads it on the store's connection, caught as it is opened.
    const pragma = vi.spyOn(Database.prototype, "pragma");
    const store = open();
    try {
      const connection = pragma.mock.contexts[0] as Database.Database | undefined;
      expect(connection).toBeInstanceOf(Database);
      const set = pragma.mock.calls.map(([source]) => String(source)).filter((s) => /synchronous/i.test(s));
      pragma.mockRestore();
      return { set, inEffect: connection?.pragma("synchronous", { simple: true }), store };
    } finally {
      pragma.mockRestore();
    }
  }

  it("sets synchronous = NORMAL on its own connection by default (it syncs the WAL itself, off the event loop)", async () => {
    const { set, inEffect, store } = synchronousOf(() => sqliteStore(file));
    try {
      // Set explicitly, not left to the build's default…
      expect(set).toEqual(["synchronous = NORMAL"]);
      // …and in effect on the connection the store writes through.
      expect(inEffect, "1 is NORMAL").toBe(1);
    } finally {
      await store.close();
    }
  });

  it('sets synchronous = FULL with commitSync: "in-loop", and on a database without a WAL file', async () => {
    const inLoop = synchronousOf(() => sqliteStore(file, { commitSync: "in-loop" }));
    await inLoop.store.close();
    expect(inLoop.set).toEqual(["synchronous = FULL"]);
    expect(inLoop.inEffect, "2 is FULL").toBe(2);
    const memory = synchronousOf(() => sqliteStore(":memory:"));
    await memory.store.close();
    expect(memory.inEffect, "2 is FULL").toBe(2);
  });

  it("refuses an unknown commitSync with store_invalid, naming the choices", () => {
    expect(() => sqliteStore(file, { commitSync: "never" as "in-loop" })).toThrow(
      expect.objectContaining({ code: "store_invalid", message: expect.stringMatching(/off-loop.*in-loop/) }),
    );
  });

  it("migrates a file an older formletter wrote (user_version 0)", async () => {
    const db = new Database(file);
    db.exec("CREATE TABLE unrelated (x INTEGER)");
    db.close();
    const store = sqliteStore(file);
    await store.transaction((tx) => tx.appendAudit(auditEvent()));
    await store.close();
    expect(inspect((db) => db.pragma("user_version", { simple: true }))).toBe(schemaVersion);
  });

  it("migrates a version 1 file: its pending rows are still claimed, and claims mark them delivering", async () => {
    const db = new Database(file);
    db.exec(migrations[0] as string);
    db.pragma("user_version = 1");
    db.prepare(
      "INSERT INTO outbound (key, ticket_id, run_id, template, message, status, attempts, created_at, body_sha256) VALUES ('fl_v1', 'T-1', 'r', 'visit_request', '{}', 'pending', 0, 1, 'x')",
    ).run();
    db.close();
    const store = sqliteStore(file);
    const [row] = await store.claimDue({ now: 10, leaseUntil: 20, limit: 5 });
    expect(row).toMatchObject({ key: "fl_v1", status: "pending", leaseUntil: 20 });
    expect(await store.getOutbound(row?.id as string)).toMatchObject({ status: "delivering" });
    await store.close();
    expect(inspect((db) => db.pragma("user_version", { simple: true }))).toBe(schemaVersion);
    expect(
      inspect((db) =>
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'outbound_%'").all(),
      ),
    ).toEqual([{ name: "outbound_due" }, { name: "outbound_receipt" }]);
  });

  it("counts a transaction's sends as it goes, writes each minute's count once at commit, and none of a rolled-back one", async () => {
    const store = sqliteStore(file);
    const day = (tx: StoreTransaction, since: number) =>
      tx.countSends({ template: "visit_request", ticketId: "T-9", runId: "r", since }).then((c) => c.day);
    const minute = 60_000;
    // Three sends in one minute and one in the next hour: a day back sees all four as they are reserved;
    // a window starting after the first minute sees the later send only.
    const seen = await store.transaction(async (tx) => {
      const counts: number[] = [];
      for (const [n, at] of [0, 0, 0, 61].entries()) {
        await tx.reserve(
          reservation(`fl_group_${n}`, { ticketId: `T-${n}`, runId: `run-${n}`, at: at * minute }),
        );
        counts.push(await day(tx, 0));
      }
      counts.push(await day(tx, minute));
      return counts;
    });
    expect(seen).toEqual([1, 2, 3, 4, 1]);
    await expect(
      store.transaction(async (tx) => {
        await tx.reserve(reservation("fl_undone", { ticketId: "T-8", runId: "run-8", at: 0 }));
        throw new Error("undone");
      }),
    ).rejects.toThrow("undone");
    expect(await store.transaction((tx) => day(tx, 0))).toBe(4);
    await store.close();
    // One row a minute, and the hours kept by the triggers agree with them.
    expect(inspect((db) => db.prepare("SELECT minute, n FROM send_counts ORDER BY minute").all())).toEqual([
      { minute: 0, n: 3 },
      { minute: 61, n: 1 },
    ]);
    expect(hoursAgainstMinutes().counts).toBe(true);
  });

  it("migrates a version 2 file: its send counts are kept, and value ceilings sum from nothing", async () => {
    const db = new Database(file);
    db.exec(migrations[0] as string);
    db.exec(migrations[1] as string);
    db.pragma("user_version = 2");
    db.prepare("INSERT INTO send_counts (template, minute, n) VALUES ('visit_request', 1, 3)").run();
    db.close();
    const store = sqliteStore(file);
    const spend = [{ ceiling: "refunds", group: "refunds", currency: "EUR", units: 1250 }];
    await store.transaction((tx) => tx.reserve({ ...reservation("fl_v2", { at: 60_000 }), spend }));
    const read = await store.transaction(async (tx) => ({
      spent: await tx.sumSpend({ group: "refunds", currency: "EUR", since: 0 }),
      day: (await tx.countSends({ template: "visit_request", ticketId: "T-9", runId: "r", since: 0 })).day,
    }));
    expect(read).toEqual({ spent: 1250, day: 4 });
    await store.close();
    expect(inspect((db) => db.pragma("user_version", { simple: true }))).toBe(schemaVersion);
  });

  it("migrates a version 3 file: its reservations read back unchanged, and a send's result no longer stores its message twice", async () => {
    const db = new Database(file);
    for (const migration of migrations.slice(0, 3)) db.exec(migration);
    db.pragma("user_version = 3");
    const before = reservation("fl_v3_before");
    db.prepare(
      "INSERT INTO reservations (key, template, ticket_id, run_id, at, result) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(...reservationColumns(before));
    db.close();
    const store = sqliteStore(file);
    try {
      expect(await store.transaction((tx) => tx.findResult("fl_v3_before"))).toEqual(before.result);
      const row = outboundRow({ key: "fl_v3_after", ticketId: "T-2" });
      const written = await store.transaction(async (tx) => {
        const outboundId = await tx.addOutbound(row);
        const base = reservation("fl_v3_after", { ticketId: "T-2" });
        const result = {
          ...base.result,
          decision: { ...base.result.decision, message: row.message },
          outboundId,
        };
        await tx.reserve({ ...base, result });
        return result;
      });
      const stored = inspect(
        (db2) =>
          db2.prepare("SELECT result FROM reservations ORDER BY id DESC LIMIT 1").get() as {
            result: string;
          },
      );
      expect(JSON.parse(stored.result)).toMatchObject({ messageIn: "outbound", decision: { message: null } });
      expect(await store.transaction((tx) => tx.findResult("fl_v3_after"))).toEqual(written);
      // Keys stay unique in the rebuilt table, and counts still read from it.
      await expect(store.transaction((tx) => tx.reserve(reservation("fl_v3_before")))).rejects.toThrow();
      expect(
        await store.transaction((tx) =>
          tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "run-1", since: 0 }),
        ),
      ).toEqual({ ticket: 1, day: 1, run: 2 });
    } finally {
      await store.close();
    }
    expect(inspect((db2) => db2.pragma("user_version", { simple: true }))).toBe(schemaVersion);
  });

  /** A send as handle() writes it: its outbound row, then its reservation naming the row, in one transaction. */
  async function reserveSend(store: ReturnType<typeof sqliteStore>, key: string, ticketId = "T-1") {
    return store.transaction(async (tx) => {
      const row = outboundRow({ key, ticketId });
      const outboundId = await tx.addOutbound(row);
      const base = reservation(key, { ticketId });
      const result = {
        ...base.result,
        decision: { ...base.result.decision, message: row.message },
        outboundId,
      };
      await tx.reserve({ ...base, result });
      return result;
    });
  }

  it("files a send's reservation under its outbound row, not its key, and finds it by its key", async () => {
    const store = sqliteStore(file);
    try {
      const sends = [];
      for (let index = 0; index < 5; index++) sends.push(await reserveSend(store, `fl_send_${index}`));
      const names = inspect(
        (db) => db.prepare("SELECT key FROM reservations ORDER BY id").all() as { key: string }[],
      ).map((row) => row.key);
      // No key of a send is in the reservations' key index: only names that grow with the row's id.
      expect(names.some((name) => name.startsWith("fl_send_"))).toBe(false);
      expect([...names].sort()).toEqual(names);
      for (const [index, send] of sends.entries())
        expect(await store.transaction((tx) => tx.findResult(`fl_send_${index}`))).toEqual(send);
    } finally {
      await store.close();
    }
  });

  it("refuses a key reserved the other way: a send's key as an approval's, and an approval's as a send's", async () => {
    const store = sqliteStore(file);
    try {
      await reserveSend(store, "fl_sent");
      await expect(store.transaction((tx) => tx.reserve(reservation("fl_sent")))).rejects.toThrow(
        /fl_sent is already reserved/,
      );
      await store.transaction((tx) => tx.reserve(reservation("fl_held")));
      // The outbound row of a released approval, then a second reservation of its key: refused.
      await expect(reserveSend(store, "fl_held", "T-2")).rejects.toThrow(/fl_held is already reserved/);
      await expect(reserveSend(store, "fl_sent", "T-3")).rejects.toThrow();
      expect(await store.transaction((tx) => tx.findResult("fl_held"))).toEqual(
        reservation("fl_held").result,
      );
      expect(
        await store.transaction((tx) =>
          tx.countSends({ template: "visit_request", ticketId: "T-2", runId: "run-1", since: 0 }),
        ),
      ).toMatchObject({ ticket: 0 });
    } finally {
      await store.close();
    }
  });

  it("migrates a version 4 file: a day's counts and spend read the same from its minutes as before", async () => {
    const db = new Database(file);
    for (const migration of migrations.slice(0, 4)) db.exec(migration);
    db.pragma("user_version = 4");
    const first = Math.floor(t0 / 60_000) - 30 * 60;
    const addCount = db.prepare(
      "INSERT INTO send_counts (template, minute, n) VALUES ('visit_request', ?, ?)",
    );
    const addSpend = db.prepare(
      "INSERT INTO spend (group_name, currency, minute, units) VALUES ('refunds', 'EUR', ?, ?)",
    );
    // Every 11th minute of 30 hours before t0, each with its own count and spend.
    const minutes = Array.from({ length: (30 * 60) / 11 }, (_, i) => first + i * 11);
    for (const [i, minute] of minutes.entries()) {
      addCount.run(minute, (i % 4) + 1);
      addSpend.run(minute, 100 + i);
    }
    db.close();
    const store = sqliteStore(file);
    try {
      for (const since of [
        t0 - 86_400_000,
        t0 - 86_400_000 + 37 * 60_000,
        t0 - 3_600_000,
        t0 - 7 * 3_600_000 - 60_000,
      ]) {
        const from = Math.floor(since / 60_000);
        const kept = [...minutes.entries()].filter(([, minute]) => minute >= from);
        const read = await store.transaction(async (tx) => ({
          day: (await tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "r", since })).day,
          spent: await tx.sumSpend({ group: "refunds", currency: "EUR", since }),
        }));
        expect(read).toEqual({
          day: kept.reduce((total, [i]) => total + (i % 4) + 1, 0),
          spent: kept.reduce((total, [i]) => total + 100 + i, 0),
        });
      }
    } finally {
      await store.close();
    }
    expect(inspect((db2) => db2.pragma("user_version", { simple: true }))).toBe(schemaVersion);
  });

  it("migrates a version 5 file: hours missing sends a process opened before migration 5 wrote as minutes only are filled again", async () => {
    const db = new Database(file);
    for (const migration of migrations.slice(0, 5)) db.exec(migration);
    db.pragma("user_version = 5");
    const minute = Math.floor(t0 / 60_000) - 90;
    // What this build's code wrote at version 5: minutes and hours alike.
    db.prepare("INSERT INTO send_counts (template, minute, n) VALUES ('visit_request', ?, 2)").run(minute);
    db.prepare("INSERT INTO send_counts_hourly (template, hour, n) VALUES ('visit_request', ?, 2)").run(
      Math.floor(minute / 60),
    );
    // A process still running version 4's code, after another migrated the file: minutes only.
    db.prepare(
      "INSERT INTO send_counts (template, minute, n) VALUES ('visit_request', ?, 3) ON CONFLICT (template, minute) DO UPDATE SET n = n + 3",
    ).run(minute + 1);
    db.prepare(
      "INSERT INTO spend (group_name, currency, minute, units) VALUES ('refunds', 'EUR', ?, 700)",
    ).run(minute + 1);
    db.close();
    const store = sqliteStore(file);
    try {
      expect(hoursAgainstMinutes()).toEqual({ counts: true, spend: true });
      const since = (minute - 600) * 60_000;
      const read = await store.transaction(async (tx) => ({
        day: (await tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "r", since })).day,
        spent: await tx.sumSpend({ group: "refunds", currency: "EUR", since }),
      }));
      expect(read).toEqual({ day: 5, spent: 700 });
    } finally {
      await store.close();
    }
  });

  it("keeps each hour the sum of its minutes whoever writes them: inserts, additions, moves and deletes", async () => {
    const store = sqliteStore(file);
    const minute = Math.floor(t0 / 60_000);
    await store.transaction(async (tx) => {
      for (const at of [t0, t0 + 60_000, t0 - 3_600_000, -90_000, -3_600_000 * 5 - 1])
        await tx.reserve({
          ...reservation(`fl_hours_${at}`),
          at,
          spend: [{ ceiling: "refunds_per_day", group: "refunds", currency: "EUR", units: 40 }],
        });
    });
    await store.close();
    // Another process's writes, as a build without hours in its code makes them, and an operator's.
    const db = new Database(file);
    try {
      db.prepare(
        "INSERT INTO send_counts (template, minute, n) VALUES ('visit_request', ?, 4) ON CONFLICT (template, minute) DO UPDATE SET n = n + 4",
      ).run(minute);
      db.prepare("UPDATE send_counts SET minute = minute - 62 WHERE minute = ?").run(minute + 1);
      db.prepare("UPDATE spend SET units = units * 3, currency = 'USD' WHERE minute = ?").run(minute);
      db.prepare("DELETE FROM send_counts WHERE minute = -2").run();
      db.prepare("DELETE FROM spend WHERE minute < 0").run();
    } finally {
      db.close();
    }
    expect(hoursAgainstMinutes()).toEqual({ counts: true, spend: true });
    expect(inspect((db2) => db2.prepare("SELECT SUM(n) AS n FROM send_counts_hourly").get())).toEqual({
      n: inspect((db2) => (db2.prepare("SELECT SUM(n) AS n FROM send_counts").get() as { n: number }).n),
    });
  });

  it("migrates a version 8 file in place: its outbound rows read back with no versions, new rows keep theirs, and a formletter at 8 would refuse it", async () => {
    const db = new Database(file);
    for (const migration of migrations.slice(0, 8)) db.exec(migration);
    db.pragma("user_version = 8");
    const oldRow = outboundRow({ key: "fl_v8", receiptId: "r-v8" });
    const columns =
      "key, ticket_id, run_id, template, message, status, attempts, created_at, lease_until, delivered_at, receipt_id, body_sha256";
    const insert = (into: Database.Database, row: typeof oldRow) =>
      into
        .prepare(`INSERT INTO outbound (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(
          row.key,
          row.ticketId,
          row.runId,
          row.template,
          JSON.stringify(row.message),
          row.status,
          row.attempts,
          row.createdAt,
          null,
          null,
          row.receiptId ?? null,
          row.bodySha256,
        );
    const oldId = String(insert(db, oldRow).lastInsertRowid);
    db.close();

    const store = sqliteStore(file);
    try {
      expect(await store.getOutbound(oldId)).toEqual({ ...oldRow, id: oldId });
      expect(await store.transaction((tx) => tx.findOutboundByReceipt("r-v8"))).toMatchObject({
        id: oldId,
        templateVersion: undefined,
        catalogVersion: undefined,
      });
      const versions = { templateVersion: "0123456789abcdef", catalogVersion: "fedcba9876543210" };
      const newId = await store.transaction((tx) =>
        tx.addOutbound(outboundRow({ key: "fl_v9", ...versions })),
      );
      expect(await store.getOutbound(newId)).toMatchObject(versions);
      // A process that opened the file at version 8 keeps writing rows as it did: they read back without versions.
      const older = new Database(file);
      const olderId = String(insert(older, outboundRow({ key: "fl_older" })).lastInsertRowid);
      older.close();
      expect(await store.getOutbound(olderId)).toMatchObject({
        key: "fl_older",
        templateVersion: undefined,
        catalogVersion: undefined,
      });
    } finally {
      await store.close();
    }
    // The file is past 8: a formletter at 8 refuses it ("newer than this formletter's") rather than
    // opening it without knowing of the columns.
    expect(schemaVersion).toBeGreaterThan(8);
    expect(inspect((db2) => db2.pragma("user_version", { simple: true }))).toBe(schemaVersion);
  });

  it("keeps every committed write when the file is reopened", async () => {
    const first = sqliteStore(file);
    const ids = await first.transaction(async (tx) => {
      const auditId = await tx.appendAudit(auditEvent());
      const outboundId = await tx.addOutbound(outboundRow({ key: "fl_kept" }));
      const queueItemId = await tx.addQueueItem(queueItem({ auditId }));
      await tx.reserve(reservation("fl_kept"));
      return { auditId, outboundId, queueItemId };
    });
    await first.close();

    const second = sqliteStore(file);
    try {
      expect(await second.getOutbound(ids.outboundId)).toMatchObject({ key: "fl_kept", status: "pending" });
      expect(await second.getQueueItem(ids.queueItemId)).toMatchObject({ auditId: ids.auditId });
      expect((await collect(second.queryAudit({}))).map((event) => event.id)).toEqual([ids.auditId]);
      expect(await second.transaction((tx) => tx.findResult("fl_kept"))).toMatchObject({ auditId: "7" });
      expect(
        await second.transaction((tx) =>
          tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "run-1", since: t0 }),
        ),
      ).toEqual({ ticket: 1, day: 1, run: 1 });
    } finally {
      await second.close();
    }
  });

  it("refuses a file a newer formletter wrote, saying to upgrade, and leaves it as it was", () => {
    const db = new Database(file);
    db.pragma(`user_version = ${schemaVersion + 1}`);
    db.close();
    let error: unknown;
    try {
      sqliteStore(file);
    } catch (caught) {
      error = caught;
    }
    expect(isFormletterError(error)).toBe(true);
    expect(error).toMatchObject({ code: "store_invalid" });
    expect((error as Error).message).toMatch(/upgrade/i);
    expect((error as Error).message).toContain(file);
    expect(inspect((db2) => db2.pragma("user_version", { simple: true }))).toBe(schemaVersion + 1);
  });

  it("creates a missing parent directory", async () => {
    const nested = join(dir, "a", "b", "c", "outbox.db");
    const store = sqliteStore(nested);
    await store.transaction((tx) => tx.appendAudit(auditEvent()));
    await store.close();
    expect(existsSync(nested)).toBe(true);
  });

  it.each([[""], [undefined], [42]])("refuses a file name of %j with store_invalid", (name) => {
    expect(() => sqliteStore(name as unknown as string)).toThrow(
      expect.objectContaining({ code: "store_invalid" }),
    );
  });

  it("refuses work after close with store_unavailable", async () => {
    const store = sqliteStore(file);
    await store.close();
    await expect(store.transaction((tx) => tx.appendAudit(auditEvent()))).rejects.toMatchObject({
      code: "store_unavailable",
    });
  });

  it("two stores on one file see each other's commits and never claim the same row", async () => {
    const a = sqliteStore(file);
    const b = sqliteStore(file);
    try {
      await a.transaction(async (tx) => {
        for (let i = 0; i < 40; i++) await tx.addOutbound(outboundRow({ key: `k${i}` }));
      });
      const claimed: string[] = [];
      for (let i = 0; i < 8; i++) {
        const rows = await (i % 2 === 0 ? a : b).claimDue({ now: t0, leaseUntil: t0 + 60_000, limit: 7 });
        claimed.push(...rows.map((row) => row.key));
      }
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed).toHaveLength(40);
      await b.transaction((tx) => tx.reserve(reservation("fl_from_b")));
      expect(await a.transaction((tx) => tx.findResult("fl_from_b"))).toBeDefined();
      await expect(a.transaction((tx) => tx.reserve(reservation("fl_from_b")))).rejects.toThrow();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("two stores on one file in one process can run transactions at the same time", async () => {
    // Each store's transaction yields to the event loop while it holds the file's write lock; the
    // other store must not wait for that lock in a way that stops the loop the holder needs to commit.
    const a = sqliteStore(file, { busyTimeoutMs: 1000 });
    const b = sqliteStore(file, { busyTimeoutMs: 1000 });
    try {
      await a.transaction(async (tx) => {
        for (let i = 0; i < 8; i++) await tx.addOutbound(outboundRow({ key: `k${i}` }));
      });
      const claims = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          (i % 2 === 0 ? a : b).claimDue({ now: t0, leaseUntil: t0 + 60_000, limit: 2 }),
        ),
      );
      const keys = claims.flat().map((row) => row.key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys).toHaveLength(8);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
