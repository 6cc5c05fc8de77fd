import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetricsAccumulator, replayHistory } from "../../src/metrics/index.js";
import { catalog, sample } from "../fixtures/capacity-catalog.js";

let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "formletter-replay-bad-"));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A line that replays: the sample ticket, escalated by the model. */
const good = (ticketId: string, extra: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({
      ticketId,
      records: { ...sample, ticketId },
      output: { escalate: "needs_human" },
      ...extra,
    }),
  );

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

// Each is one line of bytes; the good lines around it must still count, and it must be malformed
// with its own line number, or (where it is valid JSON the outbox would escalate) decided.
const bad: readonly [string, Buffer, string | "decided"][] = [
  [
    "an at past the last date a Date holds",
    good("T-x", { at: 8.64e15 + 1 }),
    "at is outside the years 0000 to 9999",
  ],
  [
    "an at in the year 10000",
    good("T-x", { at: "+010000-01-01T00:00:00Z" }),
    "at is outside the years 0000 to 9999",
  ],
  ["an at of -1e300", good("T-x", { at: -1e300 }), "at is outside the years 0000 to 9999"],
  [
    "a number too large for a double",
    Buffer.from(`{"ticketId":"T-x","records":{},"output":{},"at":1e400}`),
    "at is neither an ISO 8601 time nor epoch milliseconds",
  ],
  [
    "a 400-digit ticket id number",
    Buffer.from(`{"ticketId":${"9".repeat(400)},"records":{},"output":{}}`),
    "no ticketId string",
  ],
  ["a line nested 100,000 deep", Buffer.from(nested(100_000)), "not an object"],
  [
    "an output nested 100,000 deep",
    Buffer.from(`{"ticketId":"T-x","records":{},"output":${nested(100_000)}}`),
    "decided",
  ],
  [
    "records nested 100,000 deep",
    Buffer.from(`{"ticketId":"T-x","records":{"ticketId":"T-x","orders":${nested(100_000)}},"output":{}}`),
    "decided",
  ],
  [
    "invalid UTF-8",
    Buffer.concat([
      Buffer.from('{"ticketId":"T-'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('","records":{},"output":{}}'),
    ]),
    "not valid UTF-8",
  ],
  [
    "a lone surrogate encoded in UTF-8",
    Buffer.concat([
      Buffer.from('{"ticketId":"'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('","records":{},"output":{}}'),
    ]),
    "not valid UTF-8",
  ],
  ["NUL bytes", Buffer.from('{"ticketId":"T-\u0000","records":{},"output":{}}\u0000'), "not JSON"],
  ["a line of NUL bytes only", Buffer.alloc(1000), "not JSON"],
];

async function replayWith(middle: Buffer, options: Parameters<typeof replayHistory>[2] = {}) {
  const file = join(directory, `h-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(
    file,
    Buffer.concat([
      good("T-1"),
      Buffer.from("\n"),
      middle,
      Buffer.from("\n"),
      good("T-3"),
      Buffer.from("\n"),
    ]),
  );
  return replayHistory(catalog, file, options);
}

describe("replayHistory survives any single bad line", () => {
  it.each(bad)("%s", async (_, line, problem) => {
    const report = await replayWith(line);
    if (problem === "decided") {
      expect(report.malformed.count).toBe(0);
      expect(report.overall.decided).toBe(3);
      return;
    }
    expect(report.malformed).toEqual({ count: 1, lines: [{ line: 2, problem }] });
    expect(report.overall.decided).toBe(2);
  });

  it("a 10 MB line over maxLineBytes is malformed and not held whole", async () => {
    const huge = Buffer.alloc(10 * 1_048_576, "a");
    const report = await replayWith(huge, { maxLineBytes: 1_048_576 });
    expect(report.malformed).toEqual({
      count: 1,
      lines: [{ line: 2, problem: "longer than 1048576 bytes" }],
    });
    expect(report.overall.decided).toBe(2);
  });

  it("a 10 MB line under the default cap is read and judged like any other", async () => {
    const padded = good("T-2", { tags: { note: "x" }, padding: "p".repeat(10 * 1_048_576) });
    const report = await replayWith(padded);
    expect(report.malformed.count).toBe(0);
    expect(report.overall.decided).toBe(3);
  });

  it("a 10 MB last line without a newline is judged as well", async () => {
    const file = join(directory, "last.jsonl");
    writeFileSync(file, Buffer.concat([good("T-1"), Buffer.from("\n"), Buffer.alloc(10 * 1_048_576, "b")]));
    const report = await replayHistory(catalog, file, { maxLineBytes: 65_536 });
    expect(report.malformed).toEqual({ count: 1, lines: [{ line: 2, problem: "longer than 65536 bytes" }] });
  });

  it("times at both ends of the years 0000 to 9999 are kept, with their days", async () => {
    const first = await replayWith(good("T-2", { at: "0000-01-01T00:00:00Z" }));
    const last = await replayWith(good("T-2", { at: "9999-12-31T23:59:59.999Z" }));
    expect([first.malformed.count, last.malformed.count]).toEqual([0, 0]);
    expect(first.byDay.map((day) => day.key)).toEqual(["0000-01-01"]);
    expect(last.byDay.map((day) => day.key)).toEqual(["9999-12-31"]);
  });

  it("CRLF line ends, blank lines and a last line without a newline", async () => {
    const file = join(directory, "crlf.jsonl");
    writeFileSync(file, Buffer.concat([good("T-1"), Buffer.from("\r\n\r\n   \n"), good("T-2")]));
    const report = await replayHistory(catalog, file);
    expect(report.malformed.count).toBe(0);
    expect(report.overall.decided).toBe(2);
  });
});

describe("the accumulator with a time no day can hold", () => {
  it.each([8.64e15 + 1, -1e300, 1e20, Number.NaN])("counts at %s as undated instead of throwing", (at) => {
    const metrics = createMetricsAccumulator();
    metrics.add({ at, outcome: "send" });
    metrics.add({ at: Date.UTC(2026, 2, 1), outcome: "send" });
    const report = metrics.report();
    expect(report.period.undated).toBe(1);
    expect(report.byDay.map((day) => day.key)).toEqual(["2026-03-01"]);
  });
});
