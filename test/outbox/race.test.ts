import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteStore } from "../../src/store/sqlite/index.js";
import { propertyCatalog, propertyTicket, proposal } from "../fixtures/property.js";
import { completeLines, prepareWorkers, startWorker, waitUntil } from "./processes.js";

interface RaceResult {
  readonly ticketId: string;
  readonly duplicate: boolean;
  readonly reason: string | undefined;
  readonly delivery: string | null;
}

/** Starts two workers on `file`, lets them go at one shared instant, and waits for both to end. */
async function race(dir: string, name: string, file: string, tickets: number) {
  const deliveryFile = join(dir, `${name}-deliveries.log`);
  const goFile = join(dir, `${name}-go`);
  const resultFiles = [join(dir, `${name}-a.jsonl`), join(dir, `${name}-b.jsonl`)];
  const workers = resultFiles.map((resultFile) =>
    startWorker("./fixtures/race-worker.ts", [file, deliveryFile, goFile, resultFile, String(tickets)]),
  );
  await waitUntil(
    () => resultFiles.every((resultFile) => existsSync(`${resultFile}.ready`)),
    workers,
    "both ready",
  );
  writeFileSync(`${goFile}.tmp`, String(Date.now() + 150));
  renameSync(`${goFile}.tmp`, goFile);
  const exits = await Promise.all(workers.map((worker) => worker.exited));
  return {
    exits: exits.map((exit, index) => ({ ...exit, stderr: workers[index]?.stderr() ?? "" })),
    results: resultFiles.map((resultFile) =>
      completeLines(resultFile).map((line) => JSON.parse(line) as RaceResult),
    ),
    deliveries: completeLines(deliveryFile),
  };
}

describe("two processes on one SQLite file", () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "formletter-race-"));
    await prepareWorkers();
  }, 120_000);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("handling the same proposals (perTicket: 1) at the same moment deliver each exactly once", async () => {
    const file = join(dir, "shared.db");
    // The file exists before the race: this test is about handle(), not about creating the file.
    await sqliteStore(file).close();
    const tickets = 30;
    const { exits, results, deliveries } = await race(dir, "handle", file, tickets);
    for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });

    const expectedKeys = Array.from({ length: tickets }, (_, i) => {
      const ticketId = `T-${i}`;
      return propertyCatalog.decide(proposal(ticketId), propertyTicket(ticketId)).key;
    });
    expect(deliveries.length, "deliveries in total").toBe(tickets);
    expect([...deliveries].sort()).toEqual([...expectedKeys].sort());

    const [a = [], b = []] = results;
    expect(a).toHaveLength(tickets);
    expect(b).toHaveLength(tickets);
    for (let i = 0; i < tickets; i++) {
      const pair = [a[i], b[i]] as RaceResult[];
      const first = pair.filter((result) => !result.duplicate && result.reason === undefined);
      expect(first, `T-${i}: exactly one process sends`).toHaveLength(1);
      expect(first[0]?.delivery).toBe("delivered");
      const other = pair.find((result) => result !== first[0]);
      expect(
        other?.duplicate === true || other?.reason === "limit_exceeded",
        `T-${i}: the other process got ${JSON.stringify(other)}`,
      ).toBe(true);
    }
  }, 90_000);

  it("opening a new file at the same moment both succeed", async () => {
    // A correct store passes whatever the timing; a store whose first open races (the journal mode
    // switch, or the migrations applied twice) fails here in most runs, so several pairs race at once.
    const pairs = await Promise.all(
      Array.from({ length: 3 }, (_, i) => race(dir, `open-${i}`, join(dir, `new-${i}`, "outbox.db"), 1)),
    );
    for (const [i, { exits, deliveries }] of pairs.entries()) {
      for (const exit of exits)
        expect(exit, `pair ${i}: ${exit.stderr}`).toMatchObject({ code: 0, signal: null });
      expect(deliveries, `pair ${i}`).toHaveLength(1);
    }
  }, 90_000);
});
