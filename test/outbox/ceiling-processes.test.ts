import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { ceilingMaxCents, runCeilingWorkers } from "../fixtures/ceiling-runs.js";

describe("a value ceiling shared by four processes on one SQLite file", () => {
  const dir = mkdtempSync(join(tmpdir(), "formletter-ceiling-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("accepts exactly up to the maximum, never over it, and refuses only what no longer fits", async () => {
    const file = join(dir, "outbox.db");
    await sqliteStore(file).close();
    const run = await runCeilingWorkers(dir, "sqlite", { kind: "sqlite", where: file, schema: "-" });
    expect(run.other).toEqual([]);
    expect(run.acceptedCents).toBeLessThanOrEqual(ceilingMaxCents);
    // The last sends of each worker are a cent each: the ceiling is filled to the cent.
    expect(run.acceptedCents).toBe(ceilingMaxCents);
    // A refused amount did not fit in what was left when it was refused, nor at the end.
    for (const cents of run.refused) expect(run.acceptedCents + cents).toBeGreaterThan(ceilingMaxCents);
    const store = sqliteStore(file);
    const spent = await store.transaction((tx) =>
      tx.sumSpend({ group: "refund_notice.refunds", currency: "EUR", since: 0 }),
    );
    const firsts: string[] = [];
    for await (const event of store.queryAudit({ type: "first_contact" }))
      firsts.push(event.data.destination as string);
    await store.close();
    expect(spent).toBe(run.acceptedCents);
    // First contact: one event per seller sent to, across the four processes.
    expect(new Set(firsts).size).toBe(firsts.length);
    expect(firsts).toHaveLength(run.sentTo.size);
    process.stderr.write(
      `ceiling on SQLite, 4 processes: ${run.accepted.length} accepted (${run.acceptedCents} cents of ${ceilingMaxCents}), ${run.refused.length} refused; ${run.sentTo.size} sellers sent to, first contacts recorded once each\n`,
    );
  }, 180_000);
});
