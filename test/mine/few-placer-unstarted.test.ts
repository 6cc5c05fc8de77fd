import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineRecords } from "../../src/index.js";
import { MergeHelper } from "../../src/mine/few-placer.js";
import { mineHistory } from "../../src/mine/index.js";
import { fewForHelper } from "../../src/mine/merge-clusters.js";

// No worker thread can be started, as when a bundle leaves the worker's file out.
const { startWorker } = vi.hoisted(() => ({
  startWorker: vi.fn((_name: string) => {
    throw new Error("Cannot find module merge-worker.js");
  }),
}));
vi.mock("../../src/mine/start-worker.js", () => ({ startWorker }));

describe("mining when no worker thread can be started", () => {
  it("mines a long history on the calling thread when no worker can be started", async () => {
    expect(MergeHelper.start()).toBeUndefined();
    startWorker.mockClear();
    const people = defineRecords({ people: z.object({ id: z.string(), email: z.email() }) });
    const syllables = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "vo", "pe", "du", "ga", "ho"];
    const word = (n: number) =>
      `${syllables[n % 12]}${syllables[Math.floor(n / 12) % 12]}${syllables[Math.floor(n / 144) % 12]}${syllables[Math.floor(n / 1728) % 12]}n`;
    // One-off messages enough for a helper, and lines enough for a reading worker: neither starts.
    const lines = Array.from({ length: fewForHelper + 400 }, (_, n) =>
      JSON.stringify({
        ticketId: `T-${n}`,
        records: { people: [{ id: `p${n}`, email: `p${n}@mail.example` }] },
        message: {
          to: `p${n}@mail.example`,
          text:
            n % 10 === 0
              ? `your parcel ${n} left the central depot this afternoon and the courier expects to deliver it before noon tomorrow.`
              : `${Array.from({ length: 6 }, (_, w) => word(n * 6 + w)).join(" ")} wrote about item ${n} twice.`,
        },
      }),
    );
    const report = await mineHistory(people, lines);
    expect(startWorker.mock.calls.map(([name]) => name)).toEqual(["read-worker", "merge-worker"]);
    expect(report.messages).toBe(lines.length);
    expect(report.candidates.filter((candidate) => candidate.templatable)).toHaveLength(1);
    expect(report.candidates.length).toBeGreaterThan(fewForHelper);
  });
});
