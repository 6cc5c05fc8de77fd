import { describe, expect, it } from "vitest";
import { streamingRun } from "../../bench/mining/streaming-run.js";

describe("streamingRun", () => {
  it("hands the pass every item in order, once, and counts them", async () => {
    const seen: number[] = [];
    const run = await streamingRun([3, 1, 2], (items) => {
      for (const item of items) seen.push(item);
    });
    expect(seen).toEqual([3, 1, 2]);
    expect(run.lines).toBe(3);
    // Building the lines is part of the pass's time, never more than it.
    expect(run.sourceSeconds).toBeLessThanOrEqual(run.seconds);
  });

  it("counts the lines an awaiting pass reads, and memory the pass keeps", async () => {
    const kept: Buffer[] = [];
    function* source() {
      for (let n = 0; n < 4_000; n++) yield n;
    }
    const run = await streamingRun(source(), async (items) => {
      for await (const item of items) if (item % 1_000 === 0) kept.push(Buffer.alloc(16e6, 1));
    });
    expect(run.lines).toBe(4_000);
    // 64 MB written and still held: resident, whatever else the process frees meanwhile.
    expect(run.peakMegabytesAdded).toBeGreaterThan(48);
    expect(kept).toHaveLength(4);
  });
});
