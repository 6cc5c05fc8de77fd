import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRecords } from "../../src/index.js";
import { mineHistory } from "../../src/mine/index.js";

const records = defineRecords({
  members: z.object({ id: z.string(), email: z.string(), name: z.string() }),
});

/** 1,000 messages of one template, and three free-form ones that happen to read alike. */
function history(): string[] {
  const line = (at: number, text: string) =>
    JSON.stringify({
      ticketId: `T-${at}`,
      records: { members: [{ id: `M-${at}`, email: `m${at}@gym.example`, name: `Member ${at}` }] },
      message: { to: `m${at}@gym.example`, text },
    });
  const lines = Array.from({ length: 1_000 }, (_, at) =>
    line(at, `Your membership renewal went through. See you at the gym, the front desk team.`),
  );
  for (const at of [1_000, 1_001, 1_002])
    lines.push(
      line(at, "Sorry about the locker, the plumber comes on the weekend and the sauna stays shut."),
    );
  return lines;
}

describe("a template is sent regularly", () => {
  it("a few alike messages among a thousand are not templatable, and the rate counts them as escalated", async () => {
    const report = await mineHistory(records, history());
    const alike = report.candidates.find((candidate) => candidate.skeleton.includes("plumber"));
    expect(alike?.size).toBe(3);
    expect(alike?.notTemplatable).toBe("too-few-messages");
    expect(report.coverage.at(-1)?.escalationRate).toBeCloseTo(3 / 1_003, 6);
  });

  it("minShare: 0 leaves minSize alone to decide", async () => {
    const report = await mineHistory(records, history(), { minShare: 0 });
    expect(report.candidates.find((candidate) => candidate.skeleton.includes("plumber"))?.templatable).toBe(
      true,
    );
  });

  it.each([Number.NaN, -0.1, 1.5, Number.POSITIVE_INFINITY])(
    "minShare %s is a RangeError naming it",
    async (minShare) => {
      await expect(mineHistory(records, history(), { minShare })).rejects.toThrow(
        /minShare must be a share from 0 to 1/,
      );
    },
  );
});
