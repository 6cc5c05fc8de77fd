import { createHook } from "node:async_hooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type LineProblem, type MiningReport, mineHistory } from "../../src/mine/index.js";
import { readAloneFor, readInOrder } from "../../src/mine/read-in-order.js";
import { readingDefinition } from "../../src/mine/read-line.js";
import { WarmUpLines } from "../../src/mine/warm-up-lines.js";
import { ReadingPool } from "../../src/mine/worker-pool.js";
import { generateCorpus } from "../fixtures/corpora/corpus.js";

// Worker threads started in this file and not ended yet.
const liveWorkers = new Set<number>();
const workerHook = createHook({
  init(id, type) {
    if (type === "WORKER") liveWorkers.add(id);
  },
  destroy(id) {
    liveWorkers.delete(id);
  },
});
beforeAll(() => workerHook.enable());
afterAll(() => workerHook.disable());

async function noWorkersLeft(): Promise<number> {
  // A worker's resource is destroyed a turn after it exits.
  for (let turn = 0; turn < 20 && liveWorkers.size > 0; turn++)
    await new Promise((done) => setTimeout(done, 50));
  return liveWorkers.size;
}

const corpus = generateCorpus({ domain: "insurance", style: "mail", seed: 11, messages: 2300 });
// Past 2,000 tickets the record profile samples, and past 4,096 lines workers start by default: blank,
// malformed and unreadable lines among the messages take the history there at little cost.
const history: (string | LineProblem)[] = [];
for (const [at, { line }] of [...corpus.lines()].entries()) {
  history.push(JSON.stringify(line));
  history.push("");
  if (at % 5 === 0) history.push(at % 10 === 0 ? "not json" : JSON.stringify({ ticketId: "T", records: {} }));
  if (at % 7 === 0) history.push({ problem: "not UTF-8" });
}

async function mined(
  lines: AsyncIterable<string | LineProblem> | Iterable<string | LineProblem>,
  workers: number | undefined,
): Promise<{ report: MiningReport; told: (readonly [number, number])[] }> {
  const told: (readonly [number, number])[] = [];
  const report = await mineHistory(corpus.records, lines, {
    ...(workers === undefined ? {} : { workers }),
    maxProblems: 5000,
    onMessage: (line, cluster) => told.push([line, cluster]),
  });
  return { report, told };
}

describe("mineHistory reading lines on worker threads", () => {
  let serial: Awaited<ReturnType<typeof mined>>;
  beforeAll(async () => {
    serial = await mined(history, 0);
  }, 300_000);

  it("reports exactly what reading on one thread does, and tells the same lines in the same order", async () => {
    expect(history.length).toBeGreaterThan(4096);
    expect(serial.report.messages).toBeGreaterThan(2000);
    expect(serial.report.problems.map((problem) => problem.problem)).toEqual(
      expect.arrayContaining(["not JSON", "no message object", "not UTF-8"]),
    );
    for (const workers of [1, 2, undefined]) {
      const parallel = await mined(history, workers);
      expect(parallel.report, `workers: ${workers}`).toEqual(serial.report);
      expect(parallel.told, `workers: ${workers}`).toEqual(serial.told);
    }
    expect(await noWorkersLeft()).toBe(0);
  }, 300_000);

  it("hands batches to its worker once warmed up, also from a source that never waits", async () => {
    // A source that never waits leaves no turn for the worker's readiness to be heard unless the reading
    // makes one. The history is read again and again until the worker has been given batches.
    const read = vi.spyOn(ReadingPool.prototype, "read");
    const ready = vi.spyOn(ReadingPool.prototype, "ready", "get");
    const warmUp = vi.spyOn(WarmUpLines.prototype, "take");
    try {
      const given: (string | LineProblem)[] = [];
      const endless = function* () {
        for (let at = 0; at < 60_000; at++) {
          if (read.mock.calls.length >= 16 && given.length % 32 === 0) return;
          const line = history[at % history.length] as string | LineProblem;
          given.push(line);
          yield line;
        }
      };
      const parallel = await mined(endless(), undefined);
      expect(read.mock.calls.length).toBeGreaterThanOrEqual(16);
      // The worker started once the lines read alone were read, and warmed up on them.
      expect(warmUp.mock.results.map((result) => result.value)).toEqual([
        given.slice(0, readAloneFor).filter((line) => typeof line === "string"),
      ]);
      // Nothing was handed to it before it said it was ready.
      const firstReady = ready.mock.results.findIndex((result) => result.value === true);
      expect(firstReady).toBeGreaterThanOrEqual(0);
      expect(read.mock.invocationCallOrder[0]).toBeGreaterThan(
        ready.mock.invocationCallOrder[firstReady] as number,
      );
      read.mockClear();
      expect(parallel).toEqual(await mined(given, 0));
      expect(read).not.toHaveBeenCalled();
    } finally {
      read.mockRestore();
      ready.mockRestore();
      warmUp.mockRestore();
    }
    expect(await noWorkersLeft()).toBe(0);
  }, 300_000);

  it("reads on the calling thread the batches a worker could not hold, losing no line", async () => {
    // A heap too small for the reader: its worker ends out of memory, and every batch is read here.
    const batches = async (options: { workers: number; readerHeapMb?: number }) => {
      const read: unknown[] = [];
      for await (const batch of readInOrder(corpus.records, history, options))
        read.push([batch.first, batch.lines, batch.read]);
      return read;
    };
    const starved = await batches({ workers: 1, readerHeapMb: 2 });
    expect(starved.length).toBeGreaterThan(1);
    expect(starved).toEqual(await batches({ workers: 0 }));
    expect(await noWorkersLeft()).toBe(0);
  }, 300_000);

  it("ends its workers when the source of lines throws, after clustering the lines before", async () => {
    const failing = async function* () {
      for (const [at, line] of history.entries()) {
        if (at === 1500) throw new Error("the disk went away");
        yield line;
      }
    };
    const told: (readonly [number, number])[] = [];
    await expect(
      mineHistory(corpus.records, failing(), {
        workers: 1,
        onMessage: (line, cluster) => told.push([line, cluster]),
      }),
    ).rejects.toThrow("the disk went away");
    expect(await noWorkersLeft()).toBe(0);
    // Every line before the failure was clustered and told as without workers (a line's first telling
    // is when it is added; the ones after are moves).
    const lastBefore = Math.max(...serial.told.map(([line]) => line).filter((line) => line <= 1500));
    const added = serial.told.findIndex(([line]) => line === lastBefore);
    expect(told).toEqual(serial.told.slice(0, added + 1));
  }, 300_000);

  it("ends its workers when the caller's onMessage throws", async () => {
    await expect(
      mineHistory(corpus.records, history, {
        workers: 2,
        onMessage: (line) => {
          if (line > 700) throw new Error("stop here");
        },
      }),
    ).rejects.toThrow("stop here");
    expect(await noWorkersLeft()).toBe(0);
  }, 300_000);
});

describe("mineHistory's workers option", () => {
  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "2"])(
    "refuses %s, naming the option",
    async (workers) => {
      await expect(mineHistory(corpus.records, [], { workers: workers as number })).rejects.toThrow(
        /workers must be a whole number ≥ 0/,
      );
    },
  );
});

describe("ReadingPool", () => {
  it("fails the batch, and every later one, with what went wrong in the worker, and ends it", async () => {
    // A ticket's records the reading cannot walk: the worker's reading throws.
    const pool = new ReadingPool(1, {
      definition: { ...readingDefinition(corpus.records), names: null as never },
      options: {},
    });
    const line = JSON.stringify([...corpus.lines()][0]?.line);
    await expect(pool.read([line])).rejects.toThrow(/^mining could not read a line: /);
    await expect(pool.read([line])).rejects.toThrow(/^mining could not read a line: /);
    await pool.close();
    expect(await noWorkersLeft()).toBe(0);
  }, 120_000);

  it("says it is ready once its worker has read the lines it warms up on, and reads batches sent before", async () => {
    const lines = [...corpus.lines()].slice(0, 40).map(({ line }) => JSON.stringify(line));
    const pool = new ReadingPool(1, {
      definition: readingDefinition(corpus.records),
      options: {},
      warmUp: [...lines, "not json", ""],
    });
    expect(pool.ready).toBe(false);
    const read = await pool.read(lines.slice(0, 3));
    expect(read).toHaveLength(3);
    for (let turn = 0; turn < 100 && !pool.ready; turn++) await new Promise((done) => setTimeout(done, 20));
    expect(pool.ready).toBe(true);
    expect(pool.broken).toBe(false);
    await pool.close();
    expect(await noWorkersLeft()).toBe(0);
  }, 120_000);

  it("warms up past lines it cannot read, and fails them when they come in a batch", async () => {
    const line = JSON.stringify([...corpus.lines()][0]?.line);
    const pool = new ReadingPool(1, {
      definition: { ...readingDefinition(corpus.records), names: null as never },
      options: {},
      warmUp: [line, line],
    });
    for (let turn = 0; turn < 100 && !pool.ready; turn++) await new Promise((done) => setTimeout(done, 20));
    expect(pool.ready).toBe(true);
    expect(pool.broken).toBe(false);
    await expect(pool.read([line])).rejects.toThrow(/^mining could not read a line: /);
    await pool.close();
    expect(await noWorkersLeft()).toBe(0);
  }, 120_000);

  it("fails its batches, saying so, when a worker runs out of the heap it was given", async () => {
    const pool = new ReadingPool(1, { definition: readingDefinition(corpus.records), options: {} }, 2);
    const line = JSON.stringify([...corpus.lines()][0]?.line);
    await expect(pool.read([line])).rejects.toThrow(/mining's line reader .* memory limit/);
    expect(pool.broken).toBe(true);
    await pool.close();
    expect(await noWorkersLeft()).toBe(0);
  }, 120_000);
});
