import { describe, expect, it } from "vitest";
import { memoryStore } from "../../src/index.js";
import {
  createMetricsAccumulator,
  type EscalationReport,
  formatSummary,
  type RateRow,
  reportFromAudit,
  wilsonInterval,
} from "../../src/metrics/index.js";
import { auditFixture, fillStore } from "./fixtures.js";

const counts = (rows: readonly RateRow[]) =>
  Object.fromEntries(rows.map((row) => [row.key, [row.decided, row.escalated]]));

async function fixtureReport(filter: { since?: number; until?: number } = {}): Promise<EscalationReport> {
  const store = memoryStore();
  await fillStore(store);
  try {
    return await reportFromAudit(store.queryAudit(filter));
  } finally {
    await store.close();
  }
}

describe("reportFromAudit on a fixed audit log", () => {
  it("counts decision events only: duplicates and failed deliveries apart, queue events not at all", async () => {
    const report = await fixtureReport();
    expect(report.overall).toMatchObject({ key: "all", decided: 8, sent: 4, escalated: 4, rate: 0.5 });
    const { low, high } = wilsonInterval(4, 8);
    expect(report.overall).toMatchObject({ low, high });
    expect(report.duplicates).toBe(1);
    expect(report.deliveryFailures).toBe(1);
    expect(report.source).toBe("audit");
  });

  it("counts approval_required and limit_exceeded as escalated, and says so", async () => {
    const report = await fixtureReport();
    expect(report.byReason.map((row) => [row.reason, row.count])).toEqual([
      ["approval_required", 1],
      ["limit_exceeded", 1],
      ["model_escalated", 1],
      ["slot_rejected", 1],
    ]);
    for (const row of report.byReason) {
      expect(row.share).toBe(1 / 8);
      expect(row).toMatchObject(wilsonInterval(1, 8));
    }
    expect(report.definition.join(" ")).toMatch(/approval_required counts/);
    expect(report.definition.join(" ")).toMatch(/limit_exceeded/);
    expect(report.definition.join(" ")).toMatch(/duplicate .* is not a new decision/);
  });

  it("groups by template, with escalations before any template under (none)", async () => {
    const report = await fixtureReport();
    expect(counts(report.byTemplate)).toEqual({ a: [4, 1], b: [3, 2], "(none)": [1, 1] });
    expect(report.byTemplate.map((row) => row.key)).toEqual(["a", "b", "(none)"]);
    const b = report.byTemplate.find((row) => row.key === "b");
    expect(b).toMatchObject({ sent: 1, rate: 2 / 3, ...wilsonInterval(2, 3) });
  });

  it("groups by tag value; decisions without the tag make the (none) group, so the groups add up", async () => {
    const report = await fixtureReport();
    expect(counts(report.byTag.find((t) => t.tag === "category")?.rows ?? [])).toEqual({
      delay: [3, 1],
      damage: [3, 2],
      refund: [1, 1],
      "(none)": [1, 0],
    });
    const total = (report.byTag.find((t) => t.tag === "category")?.rows ?? []).reduce(
      (sum, row) => sum + row.decided,
      0,
    );
    expect(total).toBe(report.overall.decided);
  });

  it("groups by UTC day, oldest first, leaving days without decisions out", async () => {
    const report = await fixtureReport();
    expect(counts(report.byDay)).toEqual({
      "2026-03-02": [4, 2],
      "2026-03-03": [2, 1],
      "2026-03-05": [2, 1],
    });
    expect(report.byDay.map((row) => row.key)).toEqual(["2026-03-02", "2026-03-03", "2026-03-05"]);
    expect(report.period).toEqual({
      first: "2026-03-02T10:00:00.000Z",
      last: "2026-03-05T09:00:00.000Z",
      days: 4,
      undated: 0,
    });
  });

  it("projects human decisions at the observed volume: 8 decisions over 4 calendar days", async () => {
    const report = await fixtureReport();
    const { low, high } = wilsonInterval(4, 8);
    expect(report.projection).toEqual({
      ticketsPerDay: 2,
      basis: "observed",
      days: 4,
      humanPerDay: { expected: 1, low: 2 * low, high: 2 * high },
    });
  });

  it.each([
    ["one day", "2026-03-03T00:00:00Z", "2026-03-04T00:00:00Z", 2, 1, 1],
    ["from a time on", "2026-03-02T12:00:00Z", undefined, 6, 3, 1],
    ["up to a time", undefined, "2026-03-02T12:00:00Z", 2, 1, 0],
    ["an empty window", "2026-03-04T00:00:00Z", "2026-03-05T00:00:00Z", 0, 0, 0],
  ])("reads a window: %s", async (_, since, until, decided, escalated, duplicates) => {
    const report = await fixtureReport({
      ...(since ? { since: Date.parse(since) } : {}),
      ...(until ? { until: Date.parse(until) } : {}),
    });
    expect(report.overall).toMatchObject({ decided, escalated });
    expect(report.duplicates).toBe(duplicates);
    if (decided === 0) {
      expect(report.overall).toMatchObject({ rate: 0, low: 0, high: 1 });
      expect(report.projection).toBeUndefined();
      expect(report.byDay).toEqual([]);
    }
  });

  it("projects at a given volume instead when asked", async () => {
    const store = memoryStore();
    await fillStore(store);
    const report = await reportFromAudit(store.queryAudit({}), { ticketsPerDay: 1000 });
    await store.close();
    expect(report.projection).toMatchObject({
      ticketsPerDay: 1000,
      basis: "given",
      humanPerDay: { expected: 500 },
    });
    expect(report.projection).not.toHaveProperty("days");
  });

  it("summarises in a few lines", async () => {
    expect(formatSummary(await fixtureReport())).toBe(
      [
        "escalation rate 50.0% (95% CI 21.5%–78.5%): 4 of 8 decisions escalated, 4 sent",
        "human decisions: 0.4–1.6 a day at the observed 2 tickets a day (over 4 days)",
        "by reason: approval_required 1 · limit_exceeded 1 · model_escalated 1 · slot_rejected 1",
        "1 duplicate(s) not counted as decisions; 1 failed deliveries counted apart",
        "",
      ].join("\n"),
    );
  });

  it("takes a plain array of events too", async () => {
    const events = auditFixture.map((event, index) => ({ ...event, id: String(index + 1) }));
    expect((await reportFromAudit(events)).overall.decided).toBe(8);
  });
});

describe("createMetricsAccumulator", () => {
  it("keeps memory bounded by the number of groups: past maxGroups, keys share (other)", () => {
    const metrics = createMetricsAccumulator({ maxGroups: 3 });
    for (let n = 0; n < 10_000; n++) {
      metrics.add({
        at: Date.UTC(2026, 0, 1) + n * 3_600_000,
        template: `t${n % 10}`,
        outcome: n % 4 === 0 ? "escalate" : "send",
        reason: n % 4 === 0 ? "slot_rejected" : undefined,
        tags: { customer: `c${n}`, [`name${n % 7}`]: "x" },
      });
    }
    const report = metrics.report();
    expect(report.byTemplate.map((row) => row.key).sort()).toEqual(["(other)", "t0", "t1", "t2"]);
    expect(report.byTemplate.reduce((sum, row) => sum + row.decided, 0)).toBe(10_000);
    expect(report.byTag.find((t) => t.tag === "customer")?.rows.length).toBe(4); // three values and (other); no (none): every decision has it
    expect(report.byTag).toHaveLength(3);
    expect(report.byDay).toHaveLength(4);
    expect(report.truncated).toEqual(["template", "day", "template version", "tag names", "tag:customer"]);
    expect(report.overall).toMatchObject({ decided: 10_000, escalated: 2_500 });
  });

  it("counts undated decisions in the totals and not by day, and keeps the first malformed lines", () => {
    const metrics = createMetricsAccumulator({ maxMalformed: 2, source: "replay" });
    metrics.add({ outcome: "send" });
    metrics.add({ outcome: "escalate", reason: "unknown_template" });
    for (const line of [3, 7, 9]) metrics.addMalformed(line, "not JSON");
    const report = metrics.report();
    expect(report.overall).toMatchObject({ decided: 2, escalated: 1 });
    expect(report.byDay).toEqual([]);
    expect(report.period).toEqual({ first: undefined, last: undefined, days: undefined, undated: 2 });
    expect(report.projection).toBeUndefined();
    expect(report.malformed).toEqual({
      count: 3,
      lines: [
        { line: 3, problem: "not JSON" },
        { line: 7, problem: "not JSON" },
      ],
    });
    expect(report.definition.at(-1)).toMatch(/^replay runs decide\(\) only/);
  });

  it("reports an empty run without dividing by zero", () => {
    const report = createMetricsAccumulator().report();
    expect(report.overall).toEqual({
      key: "all",
      decided: 0,
      sent: 0,
      escalated: 0,
      rate: 0,
      low: 0,
      high: 1,
    });
    expect(report.byReason).toEqual([]);
    expect(formatSummary(report)).toBe(
      "escalation rate 0.0% (95% CI 0.0%–100.0%): 0 of 0 decisions escalated, 0 sent\n",
    );
  });
});
