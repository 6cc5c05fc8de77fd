import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isFormletterError } from "../../../src/index.js";
import { hourOf } from "../../../src/store/minute-series.js";
import {
  type PostgresStore,
  postgresStore,
  StoreUnavailableError,
} from "../../../src/store/postgres/index.js";
import { decisionLock, migrations, schemaVersion } from "../../../src/store/postgres/migrations.js";
import { minuteOf, type StoreTransaction } from "../../../src/store/store.js";
import {
  auditEvent,
  collect,
  message,
  outboundRow,
  queueItem,
  reservation,
  reservationColumns,
  t0,
} from "../conformance.js";
import { type Cluster, freshSchema, postgresAvailable, startCluster } from "./cluster.js";

const available = postgresAvailable();

// Checked before any connection is made: these run with or without a PostgreSQL server.
describe("postgresStore arguments", () => {
  it.each([
    [""],
    ["Formletter"],
    ["1outbox"],
    ["pg_outbox"],
    ["out-box"],
    ['a"; DROP TABLE x; --'],
    ["x".repeat(64)],
    [42],
  ])("refuses the schema name %j with store_invalid, before connecting", (schema) => {
    expect(() =>
      postgresStore({ connectionString: "postgres://nobody@127.0.0.1:1/none" }, { schema: schema as string }),
    ).toThrow(expect.objectContaining({ code: "store_invalid" }));
  });

  it.each([[{}], [null], [{ connectionString: "" }], [{ pool: {} }]])(
    "refuses the connection %j with store_invalid",
    (connection) => {
      expect(() => postgresStore(connection as never)).toThrow(
        expect.objectContaining({ code: "store_invalid" }),
      );
    },
  );
});

describe.skipIf(!available)("postgresStore", () => {
  let cluster: Cluster;
  let admin: pg.Client;
  beforeAll(async () => {
    cluster = await startCluster();
    admin = await cluster.admin();
  }, 60_000);
  afterAll(async () => {
    await admin?.end().catch(() => undefined);
    await cluster?.destroy();
  });

  /** Two stores on one new schema, as two instances would have; both closed after `body`. */
  const twoInstances = async (name: string, body: (a: PostgresStore, b: PostgresStore) => Promise<void>) => {
    const schema = freshSchema(name);
    const a = open(schema);
    const b = open(schema);
    try {
      await body(a, b);
    } finally {
      await a.close();
      await b.close();
    }
  };
  const open = (schema = freshSchema(), options: { retryUnavailableMs?: number } = {}) =>
    postgresStore({ connectionString: cluster.url() }, { schema, ...options });
  const versions = async (schema: string) =>
    (await admin.query(`SELECT version FROM ${schema}.migrations ORDER BY version`)).rows.map(
      (row) => row.version,
    );
  const schemaExists = async (schema: string) =>
    (await admin.query("SELECT to_regnamespace($1) IS NOT NULL AS found", [schema])).rows[0].found as boolean;
  /** A new schema as `version` left it: its migrations up to that one applied and recorded. */
  const schemaAtVersion = async (name: string, version: number) => {
    const schema = freshSchema(name);
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(
      `CREATE TABLE ${schema}.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    for (const migration of migrations.slice(0, version))
      await admin.query((migration as (schema: string) => string)(schema));
    await admin.query(`INSERT INTO ${schema}.migrations (version) SELECT generate_series(1, $1::integer)`, [
      version,
    ]);
    return schema;
  };
  /**
   * An hourly table's rows, and the sums per hour of its minute table's, as sorted "key hour: amount". An
   * hour whose minutes were all taken back holds 0, which counts nothing: left out.
   */
  const hours = async (schema: string, table: string, key: string, amount: string) => {
    const rows = async (time: string, of: string) =>
      (await admin.query(`SELECT ${key} AS key, ${time} AS time, ${amount} AS amount FROM ${schema}.${of}`))
        .rows as { key: string; time: string; amount: string }[];
    const summed = new Map<string, number>();
    for (const { key, time, amount } of await rows("minute", table)) {
      const hour = `${key} ${hourOf(Number(time))}`;
      summed.set(hour, (summed.get(hour) ?? 0) + Number(amount));
    }
    return {
      stored: (await rows("hour", `${table}_hourly`))
        .filter((row) => row.amount !== "0")
        .map((row) => `${row.key} ${row.time}: ${row.amount}`)
        .sort(),
      summed: [...summed]
        .filter(([, sum]) => sum !== 0)
        .map(([hour, sum]) => `${hour}: ${sum}`)
        .sort(),
    };
  };
  const expectHoursToSumMinutes = async (schema: string) => {
    const sends = await hours(schema, "send_counts", "template", "n");
    expect(sends.stored, "sends per hour").toEqual(sends.summed);
    const spent = await hours(schema, "spend", "group_name || ' ' || currency", "units");
    expect(spent.stored, "spend per hour").toEqual(spent.summed);
  };
  /** Resolves once a backend matching `where` (SQL on pg_stat_activity) waits for a lock. */
  const waitingForLock = async (where: string, params: unknown[]) => {
    for (const started = Date.now(); Date.now() - started < 10_000; ) {
      const { rows } = await admin.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND ${where}`,
        params,
      );
      if (rows[0].n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no backend where ${where} waits for a lock`);
  };

  describe("opening and migrations", () => {
    it("returns at once, touches nothing until first used, and ready() applies every migration", async () => {
      const schema = freshSchema("lazy");
      const store = open(schema);
      try {
        expect(store.schema).toBe(schema);
        expect(await schemaExists(schema)).toBe(false);
        await store.ready();
        expect(await schemaExists(schema)).toBe(true);
        expect(await versions(schema)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
        const tables = await admin.query(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
          [schema],
        );
        expect(tables.rows.map((row) => row.table_name)).toEqual(
          expect.arrayContaining(["audit", "outbound", "queue", "reservations", "send_counts", "migrations"]),
        );
      } finally {
        await store.close();
      }
    });

    it("the first call migrates too, and reopening applies nothing again", async () => {
      const schema = freshSchema("reopen");
      const first = open(schema);
      await first.transaction((tx) => tx.appendAudit(auditEvent()));
      await first.close();
      const second = open(schema);
      await second.ready();
      expect((await collect(second.queryAudit({}))).length).toBe(1);
      await second.close();
      expect(await versions(schema)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
    });

    it("migrates a version 2 schema: value ceilings sum from nothing, under the decision lock", async () => {
      const schema = await schemaAtVersion("v2", 2);
      const store = open(schema);
      try {
        const spend = [{ ceiling: "refunds", group: "refunds", currency: "EUR", units: 1250 }];
        await store.transaction((tx) => tx.reserve({ ...reservation("fl_v2"), spend }));
        await store.transaction((tx) => tx.reserve({ ...reservation("fl_v2b"), spend }));
        expect(
          await store.transaction((tx) =>
            tx.sumSpend({ group: "refunds", currency: "EUR", since: t0 - 60_000 }),
          ),
        ).toBe(2500);
        expect(await versions(schema)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
      } finally {
        await store.close();
      }
    });

    it("migrates a version 3 schema: a send reserved before reads back as written, and one reserved after stores its message once and reads back whole", async () => {
      const schema = await schemaAtVersion("v3", 3);
      // As version 3 wrote it: the whole decision, message included, in the reservation.
      const before = reservation("fl_v3_before");
      await admin.query(
        `INSERT INTO ${schema}.reservations (key, template, ticket_id, run_id, at, result) VALUES ($1, $2, $3, $4, $5, $6)`,
        reservationColumns(before),
      );
      const store = open(schema);
      try {
        expect(await store.transaction((tx) => tx.findResult("fl_v3_before"))).toEqual(before.result);
        // A send as handle() records it: the outbound row, then the reservation naming it.
        const row = outboundRow({ key: "fl_v3_after", ticketId: "T-2", message: message("after") });
        const written = await store.transaction(async (tx) => {
          const outboundId = await tx.addOutbound(row);
          const result = {
            decision: {
              ...reservation("fl_v3_after").result.decision,
              ticketId: "T-2",
              message: row.message,
            },
            auditId: "7",
            outboundId,
            queueItemId: undefined,
          };
          await tx.reserve({ ...reservation("fl_v3_after", { ticketId: "T-2" }), result });
          return result;
        });
        const stored = await admin.query(
          `SELECT result FROM ${schema}.reservations WHERE key = 'fl_v3_after'`,
        );
        expect(stored.rows[0].result).toMatchObject({ messageIn: "outbound", decision: { message: null } });
        const read = await store.transaction((tx) => tx.findResult("fl_v3_after"));
        expect(read).toEqual(written);
        expect(Object.keys(read?.decision ?? {})).toEqual(Object.keys(written.decision));
        expect(await versions(schema)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
      } finally {
        await store.close();
      }
    });

    it("migrates a version 1 schema: its pending rows are still claimed, and claims mark them delivering", async () => {
      const schema = await schemaAtVersion("v1", 1);
      await admin.query(
        `INSERT INTO ${schema}.outbound (id, key, ticket_id, run_id, template, message, status, attempts, created_at, body_sha256)
         VALUES (1, 'fl_v1', 'T-1', 'r', 'visit_request', '{}', 'pending', 0, 1, 'x')`,
      );
      const store = open(schema);
      try {
        const [row] = await store.claimDue({ now: 10, leaseUntil: 20, limit: 5 });
        expect(row).toMatchObject({ key: "fl_v1", status: "pending", leaseUntil: 20 });
        expect(await store.getOutbound("1")).toMatchObject({ status: "delivering" });
        expect(await versions(schema)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
        const indexes = await admin.query(
          "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'outbound_%' ORDER BY 1",
          [schema],
        );
        expect(indexes.rows.map((index) => index.indexname)).toEqual([
          "outbound_due",
          "outbound_key_key",
          "outbound_pkey",
          "outbound_receipt",
        ]);
      } finally {
        await store.close();
      }
    });

    it("migrates a version 4 schema: counts and spend per hour are its minutes' sums, before 1970 too, and sums read as before", async () => {
      const schema = await schemaAtVersion("v4", 4);
      // Every 11th minute of 30 hours from 3 hours before 1970 on, and of 30 hours before t0, each with a
      // count and a spend of its own; a second template and currency every 7th of them.
      const everyEleventh = (first: number) =>
        Array.from({ length: Math.floor((30 * 60) / 11) }, (_, i) => first + i * 11);
      const minutes = [...everyEleventh(-3 * 60 - 7), ...everyEleventh(minuteOf(t0) - 30 * 60)];
      const counts = minutes.map((minute, i) => ({
        template: i % 7 === 0 ? "payment_release" : "visit_request",
        minute,
        n: (i % 4) + 1,
      }));
      const spends = minutes.map((minute, i) => ({
        currency: i % 7 === 3 ? "USD" : "EUR",
        minute,
        units: 100 + i,
      }));
      await admin.query(
        `INSERT INTO ${schema}.send_counts (template, minute, n)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])`,
        [counts.map((c) => c.template), counts.map((c) => c.minute), counts.map((c) => c.n)],
      );
      await admin.query(
        `INSERT INTO ${schema}.spend (group_name, currency, minute, units)
         SELECT 'refunds', * FROM unnest($1::text[], $2::bigint[], $3::bigint[])`,
        [spends.map((s) => s.currency), spends.map((s) => s.minute), spends.map((s) => s.units)],
      );
      const sinces = [
        ...[-3 * 60 - 7, -2 * 60 - 1, -61, -60, -59, -1, 0, 1, 59, 61, 24 * 60 + 13].map(
          (minute) => minute * 60_000 + 45_000,
        ),
        t0 - 86_400_000,
        t0 - 86_400_000 + 37 * 60_000,
        t0 - 3_600_000,
        t0 - 7 * 3_600_000 - 60_000,
      ];
      // What version 4's functions read: every minute from `since`'s on.
      const readV4 = async (since: number) => {
        const { rows } = await admin.query(
          `SELECT (SELECT day FROM ${schema}.count_sends(NULL, true, 'visit_request', 'T-1', 'r', $1)) AS day,
             ${schema}.sum_spend('refunds', 'EUR', $1) AS spent`,
          [minuteOf(since)],
        );
        return { day: Number(rows[0].day), spent: Number(rows[0].spent) };
      };
      const before = [];
      for (const since of sinces) before.push(await readV4(since));
      expect(before, "version 4 reads every minute").toEqual(
        sinces.map((since) => ({
          day: counts
            .filter((c) => c.template === "visit_request" && c.minute >= minuteOf(since))
            .reduce((total, c) => total + c.n, 0),
          spent: spends
            .filter((s) => s.currency === "EUR" && s.minute >= minuteOf(since))
            .reduce((total, s) => total + s.units, 0),
        })),
      );

      const store = open(schema);
      try {
        await store.ready();
        expect(await versions(schema)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
        await expectHoursToSumMinutes(schema);
        expect((await admin.query(`SELECT count(*)::int AS n FROM ${schema}.send_counts`)).rows[0].n).toBe(
          counts.length,
        );
        const read = async (since: number) =>
          store.transaction(async (tx) => ({
            day: (await tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "r", since })).day,
            spent: await tx.sumSpend({ group: "refunds", currency: "EUR", since }),
          }));
        const after = [];
        for (const since of sinces) after.push(await read(since));
        expect(after).toEqual(before);

        // Sends after the migration add to their hours too, before 1970 as after.
        const sent = [-1, -60 * 60_000, -60 * 60_000 - 1, -61 * 60_000 + 1, 0, 59 * 60_000 + 59_999, t0];
        await store.transaction(async (tx) => {
          for (const [i, at] of sent.entries())
            await tx.reserve({
              ...reservation(`fl_v4_${i}`, { ticketId: `T-${i}`, at }),
              spend: [{ ceiling: "refunds", group: "refunds", currency: "EUR", units: 1000 + i }],
            });
        });
        await expectHoursToSumMinutes(schema);
        for (const [i, since] of sinces.entries()) {
          const added = sent.flatMap((at, n) => (minuteOf(at) >= minuteOf(since) ? [n] : []));
          expect(await read(since)).toEqual({
            day: (before[i]?.day ?? 0) + added.length,
            spent: (before[i]?.spent ?? 0) + added.reduce((total, n) => total + 1000 + n, 0),
          });
        }
      } finally {
        await store.close();
      }
    });

    it("a version 4 apply and add_spend waiting for the decision lock while migration 5 runs go on after it commits, and what they write reaches its hours", async () => {
      const schema = await schemaAtVersion("v4_in_flight", 4);
      const hour = 3_600_000;
      // Written before: an hour with sends and spend in it, which the migration copies.
      await admin.query(`INSERT INTO ${schema}.send_counts VALUES ('visit_request', $1, 3)`, [minuteOf(t0)]);
      await admin.query(`INSERT INTO ${schema}.spend VALUES ('refunds', 'EUR', $1, 500)`, [minuteOf(t0)]);
      const holder = await cluster.admin();
      const oldApply = await cluster.admin();
      const oldAddSpend = await cluster.admin();
      const store = open(schema);
      try {
        const [oldApplyPid, oldAddSpendPid] = await Promise.all(
          [oldApply, oldAddSpend].map(
            async (client) => (await client.query("SELECT pg_backend_pid() AS pid")).rows[0].pid as number,
          ),
        );
        await holder.query("BEGIN");
        await holder.query(`SELECT ${decisionLock(schema)}`);
        // In the lock's queue in this order: the migration, then two calls of version 4's functions, as
        // an instance not yet upgraded makes them (each body is the one it started with).
        const migrated = store.ready();
        // Awaited below; handled now so a failure before that reports itself rather than an unhandled rejection.
        migrated.catch(() => undefined);
        await waitingForLock("strpos(query, $1) > 0", [`"${schema}".send_counts_hourly`]);
        await oldApply.query("BEGIN");
        const reservations = [
          reservation("fl_old_1", { at: t0 + 10_000 }),
          reservation("fl_old_2", { ticketId: "T-2", at: t0 + 2 * hour }),
        ];
        const applied = oldApply.query(
          `SELECT ${schema}.apply(NULL, NULL, NULL, NULL, $1::json, NULL, NULL)`,
          [JSON.stringify(reservations)],
        );
        applied.catch(() => undefined);
        await waitingForLock("pid = $1", [oldApplyPid]);
        await oldAddSpend.query("BEGIN");
        const spend = [
          { group: "refunds", currency: "EUR", units: 70 },
          { group: "refunds", currency: "USD", units: 9 },
        ];
        const added = oldAddSpend.query(`SELECT ${schema}.add_spend($1::json, $2)`, [
          JSON.stringify(spend),
          minuteOf(t0),
        ]);
        added.catch(() => undefined);
        await waitingForLock("pid = $1", [oldAddSpendPid]);
        await holder.query("COMMIT");

        // The migration went first: while apply holds the lock it waited for, version 5 is committed.
        await applied;
        expect(await versions(schema)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
        await oldApply.query("COMMIT");
        await added;
        await oldAddSpend.query("COMMIT");
        await migrated;

        await expectHoursToSumMinutes(schema);
        const since = t0 - 24 * hour;
        expect(
          await store.transaction(async (tx) => ({
            day: (await tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "r", since })).day,
            eur: await tx.sumSpend({ group: "refunds", currency: "EUR", since }),
            usd: await tx.sumSpend({ group: "refunds", currency: "USD", since }),
          })),
        ).toEqual({ day: 5, eur: 570, usd: 9 });
      } finally {
        await holder.end();
        await oldApply.end();
        await oldAddSpend.end();
        await store.close();
      }
    });

    it("after migration 5, every write of a minute row keeps its hour the sum of its minutes: inserts, additions, moves and deletes", async () => {
      const store = open(freshSchema("hours_follow"));
      try {
        await store.ready();
        const s = store.schema;
        const m = minuteOf(t0);
        await admin.query(
          `INSERT INTO ${s}.send_counts VALUES ('visit_request', $1, 2), ('visit_request', $1 + 1, 3),
             ('payment_release', $1, 1), ('visit_request', -1, 4)`,
          [m],
        );
        await admin.query(
          `INSERT INTO ${s}.send_counts AS c VALUES ('visit_request', $1, 5), ('visit_request', -61, 6)
           ON CONFLICT (template, minute) DO UPDATE SET n = c.n + excluded.n`,
          [m],
        );
        // Moved to another hour, and to another template; then taken away.
        await admin.query(`UPDATE ${s}.send_counts SET minute = minute + 60 WHERE minute = $1 + 1`, [m]);
        await admin.query(
          `UPDATE ${s}.send_counts SET template = 'payment_release', n = 7 WHERE minute = -1`,
        );
        await admin.query(`DELETE FROM ${s}.send_counts WHERE minute = -61`);
        await admin.query(
          `INSERT INTO ${s}.spend VALUES ('refunds', 'EUR', $1, 100), ('refunds', 'EUR', $1 + 59, 20),
             ('refunds', 'USD', -60, 3)`,
          [m],
        );
        await admin.query(
          `INSERT INTO ${s}.spend AS t VALUES ('refunds', 'EUR', $1, 40)
           ON CONFLICT (group_name, currency, minute) DO UPDATE SET units = t.units + excluded.units`,
          [m],
        );
        await admin.query(`UPDATE ${s}.spend SET minute = minute + 1 WHERE minute = $1 + 59`, [m]);
        await admin.query(`DELETE FROM ${s}.spend WHERE currency = 'USD'`);
        await expectHoursToSumMinutes(s);
        expect(
          await store.transaction(async (tx) => ({
            day: (await tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "r", since: t0 }))
              .day,
            eur: await tx.sumSpend({ group: "refunds", currency: "EUR", since: t0 }),
          })),
        ).toEqual({ day: 2 + 5 + 3, eur: 100 + 40 + 20 });
      } finally {
        await store.close();
      }
    });

    it("eight instances opening one new schema at the same moment all succeed, and it is migrated once", async () => {
      // Without the advisory lock, concurrent CREATE SCHEMA / CREATE TABLE fail with duplicate errors.
      const schema = freshSchema("together");
      const stores = Array.from({ length: 8 }, () => open(schema));
      try {
        await Promise.all(stores.map((store) => store.ready()));
        await Promise.all(
          stores.map((store, i) => store.transaction((tx) => tx.appendAudit(auditEvent({ at: t0 + i })))),
        );
        expect(await versions(schema)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
        expect((await collect((stores[0] as (typeof stores)[number]).queryAudit({}))).length).toBe(8);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });

    it("migrates a version 6 schema: its outbound rows read back with no versions, and rows an instance at 6 writes through apply after the migration hold none", async () => {
      const schema = await schemaAtVersion("v6", 6);
      // What an instance at version 6 sends apply: its rows as JSON, with no versions. Ids far above the
      // sequence's, so the store's own never meet them.
      const applyAsVersion6 = (id: number, key: string) =>
        admin.query(`SELECT ${schema}.apply(NULL, NULL, $1::json, NULL, NULL, NULL, NULL)`, [
          JSON.stringify([{ id, ...outboundRow({ key, receiptId: `r-${key}` }) }]),
        ]);
      await applyAsVersion6(900_000_001, "fl_v6");
      const store = open(schema);
      try {
        expect(await store.getOutbound("900000001")).toEqual({
          ...outboundRow({ key: "fl_v6", receiptId: "r-fl_v6" }),
          id: "900000001",
          key: "fl_v6",
        });
        const stamped = { templateVersion: "0123456789abcdef", catalogVersion: "fedcba9876543210" };
        const newId = await store.transaction((tx) =>
          tx.addOutbound(outboundRow({ key: "fl_v7", ...stamped })),
        );
        expect(await store.getOutbound(newId)).toMatchObject(stamped);
        await applyAsVersion6(900_000_002, "fl_still_v6");
        expect(await store.transaction((tx) => tx.findOutboundByReceipt("r-fl_still_v6"))).toMatchObject({
          id: "900000002",
          templateVersion: undefined,
          catalogVersion: undefined,
        });
        expect(await versions(schema)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
        expect(schemaVersion).toBeGreaterThan(6);
      } finally {
        await store.close();
      }
    });

    it("migrates a version 7 schema to hash indexes on tickets and runs: a ticket's events and its and its run's counts read the same, from rows written before and after", async () => {
      const schema = await schemaAtVersion("v7", 7);
      // Rows as an instance at version 7 writes them, through apply: ids far above the sequence's.
      const applyAsVersion7 = (id: number, ticketId: string, template: string, at: number) =>
        admin.query(`SELECT ${schema}.apply(NULL, $1::json, NULL, NULL, $2::json, NULL, NULL)`, [
          JSON.stringify([{ id, ...auditEvent({ at, ticketId, template }) }]),
          JSON.stringify([reservation(`fl_v7_${id}`, { ticketId, template, runId: `run-${ticketId}`, at })]),
        ]);
      await applyAsVersion7(900_000_001, "T-old", "visit_request", t0);
      await applyAsVersion7(900_000_002, "T-old", "other_template", t0 + 1);
      await applyAsVersion7(900_000_003, "T-other", "visit_request", t0 + 2);
      const store = open(schema);
      try {
        await store.transaction(async (tx) => {
          await tx.appendAudit(auditEvent({ at: t0 + 3, ticketId: "T-old" }));
          await tx.reserve(reservation("fl_v8", { ticketId: "T-old", runId: "run-T-old", at: t0 + 3 }));
        });
        const { rows } = await admin.query(
          `SELECT c.relname AS name, a.amname AS method FROM pg_class c JOIN pg_am a ON a.oid = c.relam
           WHERE c.relnamespace = $1::regnamespace AND c.relname IN ('audit_ticket', 'reservations_ticket', 'reservations_run')
           ORDER BY 1`,
          [schema],
        );
        expect(rows).toEqual([
          { name: "audit_ticket", method: "hash" },
          { name: "reservations_run", method: "hash" },
          { name: "reservations_ticket", method: "hash" },
        ]);
        const events = await collect(store.queryAudit({ ticketId: "T-old" }));
        expect(events.map((event) => [event.at, event.template])).toEqual([
          [t0, "visit_request"],
          [t0 + 1, "other_template"],
          [t0 + 3, "visit_request"],
        ]);
        expect(
          await collect(store.queryAudit({ ticketId: "T-old", since: t0 + 1, until: t0 + 3 })),
        ).toHaveLength(1);
        const counts = await store.transaction((tx) =>
          tx.countSends({ template: "visit_request", ticketId: "T-old", runId: "run-T-old", since: t0 }),
        );
        expect(counts).toEqual({ ticket: 2, day: 3, run: 3 });
        expect(await versions(schema)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
      } finally {
        await store.close();
      }
    });

    it("refuses a schema a newer formletter wrote, saying to upgrade, and leaves it as it was", async () => {
      const schema = freshSchema("newer");
      const store = open(schema);
      await store.ready();
      await store.close();
      await admin.query(`INSERT INTO ${schema}.migrations (version) VALUES ($1)`, [schemaVersion + 1]);

      const later = open(schema);
      try {
        const error = await later.ready().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(isFormletterError(error)).toBe(true);
        expect(error).toMatchObject({ code: "store_invalid" });
        expect((error as Error).message).toMatch(/upgrade/i);
        expect((error as Error).message).toContain(schema);
        await expect(later.transaction((tx) => tx.appendAudit(auditEvent()))).rejects.toMatchObject({
          code: "store_invalid",
        });
        expect(await versions(schema)).toEqual([
          ...Array.from({ length: schemaVersion }, (_, i) => i + 1),
          schemaVersion + 1,
        ]);
      } finally {
        await later.close();
      }
    });

    it("opens a schema an administrator prepared, as a role that may not create schemas", async () => {
      const schema = freshSchema("prepared");
      const role = `app_${schema}`;
      await admin.query(`CREATE ROLE ${role} LOGIN`);
      await admin.query(`REVOKE CREATE ON DATABASE postgres FROM PUBLIC`);
      await admin.query(`CREATE SCHEMA ${schema} AUTHORIZATION ${role}`);
      const store = postgresStore(
        { connectionString: `postgres://${role}@127.0.0.1:${cluster.port}/postgres` },
        { schema },
      );
      try {
        await store.ready();
        await store.transaction((tx) => tx.appendAudit(auditEvent()));
        expect(await versions(schema)).toHaveLength(schemaVersion);
        // And the same role cannot create a schema itself: the look-up first is what made this work.
        const other = postgresStore(
          { connectionString: `postgres://${role}@127.0.0.1:${cluster.port}/postgres` },
          { schema: freshSchema("not_allowed") },
        );
        await expect(other.ready()).rejects.toMatchObject({ code: "store_invalid" });
        await other.close();
      } finally {
        await store.close();
        await admin.query(`GRANT CREATE ON DATABASE postgres TO PUBLIC`);
      }
    });

    it.each(["user", "order", "select"])(
      "a schema named like an SQL keyword (%s) works: names are quoted",
      async (schema) => {
        const store = open(schema);
        try {
          await store.transaction((tx) => tx.reserve(reservation("fl_keyword")));
          expect(await store.transaction((tx) => tx.findResult("fl_keyword"))).toMatchObject({
            auditId: "7",
          });
        } finally {
          await store.close();
          await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
        }
      },
    );

    it("keeps two schemas of one database apart: keys, counts, queue and audit", async () => {
      const a = open(freshSchema("apart_a"));
      const b = open(freshSchema("apart_b"));
      try {
        await a.transaction(async (tx) => {
          await tx.reserve(reservation("fl_shared"));
          await tx.appendAudit(auditEvent());
          await tx.addQueueItem(queueItem());
        });
        expect(await b.transaction((tx) => tx.findResult("fl_shared"))).toBeUndefined();
        expect(
          await b.transaction((tx) =>
            tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "run-1", since: t0 - 1 }),
          ),
        ).toEqual({ ticket: 0, day: 0, run: 0 });
        expect((await b.listQueue({})).items).toEqual([]);
        expect(await collect(b.queryAudit({}))).toEqual([]);
        await b.transaction((tx) => tx.reserve(reservation("fl_shared")));
      } finally {
        await a.close();
        await b.close();
      }
    });

    it("lists the queue in creation order across instances, though ids are drawn in blocks", async () => {
      await twoInstances("order", async (a, b) => {
        // Each store draws its own block of ids: b's first item has a larger id than a's second.
        const created: string[] = [];
        for (const store of [a, b, a, b, a]) {
          created.push(await store.transaction((tx) => tx.addQueueItem(queueItem())));
        }
        expect(new Set(created).size).toBe(5);
        expect([...created].sort((x, y) => Number(x) - Number(y))).not.toEqual(created);
        expect((await a.listQueue({})).items.map((item) => item.id)).toEqual(created);
        const paged: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await b.listQueue({ limit: 2, ...(cursor ? { cursor } : {}) });
          paged.push(...page.items.map((item) => item.id));
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        expect(paged).toEqual(created);
      });
    });
  });

  describe("locks", () => {
    it("an idempotency key taken as new but reserved meanwhile by another instance is read again", async () => {
      await twoInstances("optimistic", async (a, b) => {
        await a.ready();
        await b.ready();
        const seen: unknown[] = [];
        let reservedByB = false;
        const outcome = await a.transaction(async (tx) => {
          const prior = await tx.findResult("fl_race");
          seen.push(prior);
          if (!reservedByB) {
            reservedByB = true;
            await b.transaction((other) => other.reserve(reservation("fl_race", { runId: "run-b" })));
          }
          await tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "run-a", since: t0 });
          if (prior !== undefined) return "duplicate";
          await tx.reserve(reservation("fl_race", { runId: "run-a" }));
          return "reserved";
        });
        expect(outcome).toBe("duplicate");
        expect(seen[0]).toBeUndefined();
        expect(seen.at(-1)).toMatchObject({ auditId: "7" });
        expect(
          await a.transaction((tx) =>
            tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "run-b", since: t0 }),
          ),
        ).toEqual({ ticket: 1, day: 1, run: 1 });
      });
    });

    it("a key taken as new and reserved, but reserved first by another instance, makes the transaction read again", async () => {
      await twoInstances("reserved_first", async (a, b) => {
        await a.ready();
        const seen: unknown[] = [];
        const outcome = await a.transaction(async (tx) => {
          const prior = await tx.findResult("fl_first");
          seen.push(prior);
          if (seen.length === 1)
            await b.transaction((other) => other.reserve(reservation("fl_first", { runId: "run-b" })));
          if (prior !== undefined) return "duplicate";
          // Nothing read in between: the key is checked only when the reservation is written.
          await tx.reserve(reservation("fl_first", { runId: "run-a" }));
          return "reserved";
        });
        expect(outcome).toBe("duplicate");
        expect(seen).toHaveLength(2);
        expect(
          await a.transaction((tx) =>
            tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "run-a", since: t0 }),
          ),
        ).toEqual({ ticket: 1, day: 1, run: 0 });
      });
    });

    describe("send counts answered from what this instance knew, checked against the limits at commit", () => {
      const limits = { ticket: 1, day: 3, run: 10 };
      const count = (tx: StoreTransaction, ticketId: string, runId: string) =>
        tx.countSends({ template: "visit_request", ticketId, runId, since: t0 - 1, limits });
      // Sends on ticketId if the counts allow one more, as the outbox does; returns the counts seen.
      const sendIfAllowed = async (tx: StoreTransaction, ticketId: string, runId: string, key: string) => {
        const counts = await count(tx, ticketId, runId);
        if (counts.ticket < limits.ticket && counts.day < limits.day && counts.run < limits.run)
          await tx.reserve(reservation(key, { ticketId, runId }));
        return counts;
      };

      it("an answer another instance's send moved across a limit is read again", async () => {
        await twoInstances("guessed", async (a, b) => {
          // a learns that T-1 and run-x have no sends…
          expect(await a.transaction((tx) => count(tx, "T-1", "run-x"))).toEqual({
            ticket: 0,
            day: 0,
            run: 0,
          });
          // …then b sends on T-1 in run-x, reaching the ticket's limit.
          await b.transaction((tx) => tx.reserve(reservation("fl_b", { ticketId: "T-1", runId: "run-x" })));
          const seen: unknown[] = [];
          const result = await a.transaction(async (tx) => {
            const counts = await sendIfAllowed(tx, "T-1", "run-x", "fl_a");
            seen.push(counts);
            return counts;
          });
          expect(seen[0], "first answered from what a knew").toEqual({ ticket: 0, day: 0, run: 0 });
          expect(result).toEqual({ ticket: 1, day: 1, run: 1 });
          expect(seen.length, "the transaction ran again after the check failed").toBe(2);
          expect(await a.transaction((tx) => tx.findResult("fl_a"))).toBeUndefined();
        });
      });

      it("another instance's sends that leave every answer on its side of the limit do not fail the check", async () => {
        await twoInstances("same_side", async (a, b) => {
          await a.transaction((tx) => count(tx, "T-1", "run-x"));
          // b sends on another ticket: the day count moves from 0 to 1, still below 3 with a's send.
          await b.transaction((tx) => tx.reserve(reservation("fl_b", { ticketId: "T-2", runId: "run-y" })));
          let runs = 0;
          const result = await a.transaction(async (tx) => {
            runs += 1;
            return sendIfAllowed(tx, "T-1", "run-x", "fl_a");
          });
          expect(runs).toBe(1);
          expect(result.day, "answered from what a knew, not read").toBe(0);
          expect(await a.transaction((tx) => tx.findResult("fl_a"))).toMatchObject({ auditId: "7" });
          // Exact counts (no limits given) see both sends.
          expect(
            await a.transaction((tx) =>
              tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "run-x", since: t0 - 1 }),
            ),
          ).toEqual({ ticket: 1, day: 2, run: 1 });
        });
      });

      it("never lets the day limit pass when instances race for its last sends", async () => {
        const schema = freshSchema("day_race");
        const stores = [open(schema), open(schema), open(schema)];
        try {
          for (const store of stores) await store.transaction((tx) => count(tx, "T-0", "run-0"));
          // Each instance sends on fresh tickets, in group-commit-sized transactions, all at once.
          await Promise.all(
            stores.map((store, s) =>
              Promise.all(
                Array.from({ length: 4 }, (_, i) =>
                  store.transaction((tx) =>
                    sendIfAllowed(tx, `T-${s}-${i}`, `run-${s}-${i}`, `fl_${s}_${i}`),
                  ),
                ),
              ),
            ),
          );
          expect(
            await stores[0]?.transaction((tx) =>
              tx.countSends({ template: "visit_request", ticketId: "T-0", runId: "run-0", since: t0 - 1 }),
            ),
          ).toEqual({ ticket: 0, day: 3, run: 0 });
        } finally {
          for (const store of stores) await store.close();
        }
      });

      it("a refusal states the count read from the database, not a guess", async () => {
        await twoInstances("refusal", async (a, b) => {
          for (const ticket of ["T-1", "T-2", "T-3"])
            await a.transaction((tx) => sendIfAllowed(tx, ticket, `run-${ticket}`, `fl_${ticket}`));
          // a knows the day's limit of 3 is reached; b sends once more all the same (as an approval can).
          await b.transaction((tx) => tx.reserve(reservation("fl_b", { ticketId: "T-4", runId: "run-y" })));
          const counts = await a.transaction((tx) => sendIfAllowed(tx, "T-5", "run-z", "fl_T-5"));
          expect(counts).toEqual({ ticket: 0, day: 4, run: 0 });
          expect(await a.transaction((tx) => tx.findResult("fl_T-5"))).toBeUndefined();
        });
      });
    });

    describe("the day limit, summed from the minutes up to the first whole hour and whole hours after", () => {
      const minute = 60_000;
      const hour = 60 * minute;
      const day = 24 * hour;
      // 23 min 10 s into an hour: the day back starts 23 min 10 s into the hour a day ago; its first whole
      // hour starts 36 min 50 s later.
      const now = t0 + 23 * minute + 10_000;
      const since = now - day;
      const firstWholeHour = since + 36 * minute + 50_000;
      // Sends over more than a day: in the day, from the start of `since`'s minute to just before now…
      const inDay = [
        since - 10_000,
        firstWholeHour - 1,
        firstWholeHour,
        t0 - 5 * hour + 17 * minute,
        now - 1,
      ];
      // …and before it: in the minute before `since`'s, in the same hour, and an hour earlier.
      const beforeDay = [since - 10_001, since - 23 * minute, since - hour];
      const limits = { ticket: 1, day: inDay.length + 1, run: 10 };
      const count = (tx: StoreTransaction, ticketId: string) =>
        tx.countSends({ template: "visit_request", ticketId, runId: `run-${ticketId}`, since, limits });
      const send = (store: PostgresStore, ticketId: string, at: number) =>
        store.transaction((tx) =>
          tx.reserve(reservation(`fl_${ticketId}`, { ticketId, runId: `run-${ticketId}`, at })),
        );
      // Sends now on ticketId if the counts allow one more, as the outbox does; returns the counts seen.
      const sendIfAllowed = async (tx: StoreTransaction, ticketId: string) => {
        const counts = await count(tx, ticketId);
        if (counts.ticket < limits.ticket && counts.day < limits.day && counts.run < limits.run)
          await tx.reserve(reservation(`fl_${ticketId}`, { ticketId, runId: `run-${ticketId}`, at: now }));
        return counts;
      };
      const sent = async (store: PostgresStore, ticketId: string) =>
        (await store.transaction((tx) => tx.findResult(`fl_${ticketId}`))) !== undefined;
      const fill = async (store: PostgresStore) => {
        for (const [i, at] of [...inDay, ...beforeDay].entries()) await send(store, `T-fill-${i}`, at);
      };

      it.each([
        ["in `since`'s minute, before `since`", since - 10_000],
        ["in the last minute before the first whole hour", firstWholeHour - 1],
        ["at the first whole hour", firstWholeHour],
        ["in the last hour", now - 1],
      ])(
        "a send %s that reaches the limit fails the answer given before it: read again, the next send is refused",
        async (_, at) => {
          await twoInstances("day_hours", async (a, b) => {
            await fill(b);
            expect((await a.transaction((tx) => count(tx, "T-0"))).day).toBe(inDay.length);
            await send(b, "T-b", at);
            const seen: number[] = [];
            await a.transaction(async (tx) => {
              seen.push((await sendIfAllowed(tx, "T-a")).day);
            });
            expect(seen, "answered from what a knew, then read again").toEqual([limits.day - 1, limits.day]);
            expect(await sent(a, "T-a")).toBe(false);
          });
        },
      );

      it("a send before `since`'s minute, in its hour, leaves the answer given before it standing; the send that reaches the limit refuses the next", async () => {
        await twoInstances("day_hours_before", async (a, b) => {
          await fill(b);
          expect((await a.transaction((tx) => count(tx, "T-0"))).day).toBe(inDay.length);
          await send(b, "T-b", since - minute);
          let runs = 0;
          const counts = await a.transaction(async (tx) => {
            runs += 1;
            return sendIfAllowed(tx, "T-a");
          });
          expect({ runs, day: counts.day }).toEqual({ runs: 1, day: limits.day - 1 });
          expect(await sent(a, "T-a")).toBe(true);
          // The limit is reached: neither instance sends again, whether it knew the count or not.
          expect((await a.transaction((tx) => sendIfAllowed(tx, "T-a2"))).day).toBe(limits.day);
          expect((await b.transaction((tx) => sendIfAllowed(tx, "T-b2"))).day).toBe(limits.day);
          expect(await sent(a, "T-a2")).toBe(false);
          expect(await sent(b, "T-b2")).toBe(false);
        });
      });
    });

    it("keeps JSON values exactly, an escaped NUL included, next to values without one", async () => {
      const store = open(freshSchema("nul"));
      try {
        const plain = auditEvent({ data: { text: "plain", nested: { list: [1, "two"] } } });
        const nul = auditEvent({ at: t0 + 1, data: { output: "a\u0000b", surrogate: "\ud800" } });
        await store.transaction(async (tx) => {
          await tx.appendAudit(plain);
          await tx.appendAudit(nul);
        });
        await store.transaction((tx) => tx.appendAudit({ ...plain, at: t0 + 2 }));
        const events = await collect(store.queryAudit({}));
        expect(events.map((event) => event.data)).toEqual([plain.data, nul.data, plain.data]);
        const row = outboundRow({ key: "fl_nul", message: { ...outboundRow().message, text: "x\u0000y" } });
        const id = await store.transaction((tx) => tx.addOutbound(row));
        expect((await store.getOutbound(id))?.message.text).toBe("x\u0000y");
      } finally {
        await store.close();
      }
    });

    it("transactions that lock queue items and read keys in opposite orders never deadlock", async () => {
      const schema = freshSchema("order_locks");
      const stores = [open(schema), open(schema)] as const;
      const [a, b] = stores;
      try {
        const ids = await a.transaction(async (tx) => [
          await tx.addQueueItem(queueItem()),
          await tx.addQueueItem(queueItem()),
        ]);
        const [first = "", second = ""] = ids;
        const deadlocks = async () =>
          Number(
            (await admin.query("SELECT deadlocks FROM pg_stat_database WHERE datname = 'postgres'")).rows[0]
              .deadlocks,
          );
        const before = await deadlocks();
        const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
        // Row locks alone (FOR UPDATE in job order) would deadlock here in most rounds: each transaction
        // holds one item and waits for the other's.
        const round = (store: typeof a, one: string, other: string, i: number) =>
          store.transaction(async (tx: StoreTransaction) => {
            await tx.getQueueItem(one);
            await tx.updateQueueItem(one, { note: `round ${i}` });
            await pause();
            await tx.findResult(`fl_${i}_${one}`);
            await tx.getQueueItem(other);
            await tx.updateQueueItem(other, { note: `round ${i}` });
          });
        for (let i = 0; i < 20; i++) {
          await Promise.all([round(a, first, second, i), round(b, second, first, i)]);
        }
        // pg_stat_database is updated by the stats collector, which reports within a second.
        await new Promise((resolve) => setTimeout(resolve, 1100));
        expect(await deadlocks()).toBe(before);
        expect((await a.getQueueItem(first))?.note).toBe("round 19");
      } finally {
        await a.close();
        await b.close();
      }
    });

    it("a claim passes over a row another transaction holds instead of waiting for it", async () => {
      const store = open(freshSchema("skip_locked"));
      const holder = await cluster.admin();
      try {
        const ids = await store.transaction(async (tx) => [
          await tx.addOutbound(outboundRow({ key: "held" })),
          await tx.addOutbound(outboundRow({ key: "free" })),
        ]);
        await holder.query("BEGIN");
        await holder.query(`SELECT id FROM ${store.schema}.outbound WHERE id = $1 FOR UPDATE`, [ids[0]]);
        const started = Date.now();
        const claimed = await store.claimDue({ now: t0, leaseUntil: t0 + 1000, limit: 10 });
        expect(claimed.map((row) => row.key)).toEqual(["free"]);
        expect(Date.now() - started).toBeLessThan(2000);
        await holder.query("ROLLBACK");
        expect(
          (await store.claimDue({ now: t0, leaseUntil: t0 + 1000, limit: 10 })).map((row) => row.key),
        ).toEqual(["held"]);
      } finally {
        await holder.end();
        await store.close();
      }
    });
  });

  describe("a lost connection or a database that is down", () => {
    const killOpenTransactions = () =>
      admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()",
      );

    it("a connection lost mid-transaction fails the call with a retryable store_unavailable, and nothing is half-written", async () => {
      const store = open(freshSchema("lost"), { retryUnavailableMs: 0 });
      try {
        await store.ready();
        const error = await store
          .transaction(async (tx) => {
            await tx.appendAudit(auditEvent());
            await tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "run-1", since: t0 });
            await tx.addOutbound(outboundRow({ key: "fl_lost" }));
            await tx.reserve(reservation("fl_lost"));
            await killOpenTransactions();
            await tx.getOutbound("1");
          })
          .then(
            () => undefined,
            (caught: unknown) => caught,
          );
        expect(error).toBeInstanceOf(StoreUnavailableError);
        expect(error).toMatchObject({ code: "store_unavailable", retryable: true, committed: false });
        expect(isFormletterError(error)).toBe(true);
        // Nothing of it was written, and the store goes on working on a fresh connection.
        expect(await collect(store.queryAudit({}))).toEqual([]);
        expect(await store.transaction((tx) => tx.findResult("fl_lost"))).toBeUndefined();
        const id = await store.transaction((tx) => tx.addOutbound(outboundRow({ key: "fl_lost" })));
        expect(await store.getOutbound(id)).toMatchObject({ key: "fl_lost" });
      } finally {
        await store.close();
      }
    });

    it("within retryUnavailableMs, a transaction whose connection broke before COMMIT runs again and commits once", async () => {
      const store = open(freshSchema("rerun"));
      try {
        await store.ready();
        let runs = 0;
        const id = await store.transaction(async (tx) => {
          runs += 1;
          const auditId = await tx.appendAudit(auditEvent());
          await tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "run-1", since: t0 });
          await tx.reserve(reservation("fl_rerun"));
          if (runs === 1) await killOpenTransactions();
          await tx.getOutbound("1");
          return auditId;
        });
        expect(runs).toBe(2);
        expect((await collect(store.queryAudit({}))).map((event) => event.id)).toEqual([id]);
        expect(
          await store.transaction((tx) =>
            tx.countSends({ template: "visit_request", ticketId: "T-1", runId: "run-1", since: t0 }),
          ),
        ).toEqual({ ticket: 1, day: 1, run: 1 });
      } finally {
        await store.close();
      }
    });

    it("while the database is down calls fail with a retryable store_unavailable; once it is back they work", async () => {
      const store = open(freshSchema("down"), { retryUnavailableMs: 300 });
      try {
        await store.transaction((tx) => tx.appendAudit(auditEvent({ ticketId: "T-before" })));
        await cluster.stopServer("fast");
        try {
          const started = Date.now();
          await expect(store.transaction((tx) => tx.appendAudit(auditEvent()))).rejects.toMatchObject({
            code: "store_unavailable",
            retryable: true,
          });
          await expect(store.claimDue({ now: t0, leaseUntil: t0 + 1, limit: 1 })).rejects.toBeInstanceOf(
            StoreUnavailableError,
          );
          expect(Date.now() - started).toBeLessThan(5000);
        } finally {
          await cluster.startServer();
        }
        await store.transaction((tx) => tx.appendAudit(auditEvent({ ticketId: "T-after" })));
        expect((await collect(store.queryAudit({}))).map((event) => event.ticketId)).toEqual([
          "T-before",
          "T-after",
        ]);
      } finally {
        await store.close();
      }
    });

    it("rides out a restart shorter than retryUnavailableMs: the call made while it was down succeeds", async () => {
      const store = open(freshSchema("restart"));
      try {
        await store.transaction((tx) => tx.appendAudit(auditEvent()));
        await cluster.stopServer("immediate");
        const during = store.transaction((tx) => tx.appendAudit(auditEvent({ ticketId: "T-during" })));
        await new Promise((resolve) => setTimeout(resolve, 300));
        await cluster.startServer();
        await during;
        expect((await collect(store.queryAudit({ ticketId: "T-during" }))).length).toBe(1);
      } finally {
        await store.close();
      }
    });

    it("after close, calls fail with store_unavailable that is not retryable; a pool passed in stays open", async () => {
      const pool = new pg.Pool({ connectionString: cluster.url() });
      pool.on("error", () => undefined);
      const store = postgresStore({ pool }, { schema: freshSchema("closed") });
      await store.transaction((tx) => tx.appendAudit(auditEvent()));
      await store.close();
      await expect(store.transaction((tx) => tx.appendAudit(auditEvent()))).rejects.toMatchObject({
        code: "store_unavailable",
        retryable: false,
      });
      await expect(store.getOutbound("1")).rejects.toMatchObject({ retryable: false });
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      await pool.end();
    });
  });
});
