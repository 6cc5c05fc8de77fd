import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresStore } from "../../../src/store/postgres/index.js";
import { ceilingMaxCents, runCeilingWorkers } from "../../fixtures/ceiling-runs.js";
import { type Cluster, freshSchema, postgresAvailable, startCluster } from "./cluster.js";

describe.skipIf(!postgresAvailable())(
  "a value ceiling shared by four processes on one Postgres schema",
  () => {
    let cluster: Cluster;
    const dir = mkdtempSync(join(tmpdir(), "formletter-pg-ceiling-"));
    beforeAll(async () => {
      cluster = await startCluster();
    }, 60_000);
    afterAll(async () => {
      await cluster?.destroy();
      rmSync(dir, { recursive: true, force: true });
    });

    it("accepts exactly up to the maximum, never over it, and refuses only what no longer fits", async () => {
      const schema = freshSchema("ceiling");
      const store = postgresStore({ connectionString: cluster.url() }, { schema });
      try {
        await store.ready();
        const run = await runCeilingWorkers(dir, "pg", { kind: "postgres", where: cluster.url(), schema });
        expect(run.other).toEqual([]);
        expect(run.acceptedCents).toBeLessThanOrEqual(ceilingMaxCents);
        expect(run.acceptedCents).toBe(ceilingMaxCents);
        for (const cents of run.refused) expect(run.acceptedCents + cents).toBeGreaterThan(ceilingMaxCents);
        const spent = await store.transaction((tx) =>
          tx.sumSpend({ group: "refund_notice.refunds", currency: "EUR", since: 0 }),
        );
        expect(spent).toBe(run.acceptedCents);
        // First contact: one event per seller sent to, across the four processes.
        const firsts: string[] = [];
        for await (const event of store.queryAudit({ type: "first_contact" }))
          firsts.push(event.data.destination as string);
        expect(new Set(firsts).size).toBe(firsts.length);
        expect(firsts).toHaveLength(run.sentTo.size);
        process.stderr.write(
          `ceiling on Postgres, 4 processes: ${run.accepted.length} accepted (${run.acceptedCents} cents of ${ceilingMaxCents}), ${run.refused.length} refused; ${run.sentTo.size} sellers sent to, first contacts recorded once each\n`,
        );
      } finally {
        await store.close();
      }
    }, 240_000);
  },
);
