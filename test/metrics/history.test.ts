import { describe, expect, it } from "vitest";
import { parseHistoryLine } from "../../src/metrics/index.js";

describe("parseHistoryLine", () => {
  it("reads a ticket with tags and an ISO time", () => {
    const line = JSON.stringify({
      ticketId: "T-1",
      records: { ticketId: "T-1" },
      output: { escalate: "needs_human" },
      tags: { category: "delay", weight: 3 },
      at: "2026-03-02T10:15:00.000Z",
    });
    expect(parseHistoryLine(line)).toEqual({
      ticketId: "T-1",
      records: { ticketId: "T-1" },
      output: { escalate: "needs_human" },
      tags: { category: "delay" },
      at: Date.parse("2026-03-02T10:15:00.000Z"),
    });
  });

  it("takes epoch milliseconds, no time at all, and a null output (which decide() escalates)", () => {
    expect(parseHistoryLine('{"ticketId":"T","records":{},"output":null,"at":1700000000000}')).toMatchObject({
      output: null,
      at: 1_700_000_000_000,
    });
    expect(parseHistoryLine('{"ticketId":"T","records":{},"output":"x"}')).toMatchObject({
      at: undefined,
      tags: undefined,
    });
  });

  it.each([
    ["{not json", "not JSON"],
    ["[1,2]", "not an object"],
    ["42", "not an object"],
    ['{"records":{},"output":{}}', "no ticketId string"],
    ['{"ticketId":7,"records":{},"output":{}}', "no ticketId string"],
    ['{"ticketId":"T","output":{}}', "no records"],
    ['{"ticketId":"T","records":{}}', "no output"],
    [
      '{"ticketId":"T","records":{},"output":{},"at":"last tuesday"}',
      "at is neither an ISO 8601 time nor epoch milliseconds",
    ],
  ])("%s is a problem: %s", (line, problem) => {
    expect(parseHistoryLine(line)).toEqual({ problem });
  });

  it("cuts tags as the outbox does and keeps a __proto__ tag a plain key", () => {
    const tags: Record<string, string> = { ["n".repeat(50)]: "v".repeat(300) };
    for (let i = 0; i < 30; i++) tags[`t${i}`] = "x";
    const parsed = parseHistoryLine(JSON.stringify({ ticketId: "T", records: {}, output: {}, tags }));
    if ("problem" in parsed) throw new Error(parsed.problem);
    expect(Object.keys(parsed.tags ?? {})).toHaveLength(20);
    expect(parsed.tags?.["n".repeat(40)]).toBe("v".repeat(200));

    const hostile = parseHistoryLine(
      '{"ticketId":"T","records":{},"output":{},"tags":{"__proto__":"polluted"}}',
    );
    if ("problem" in hostile) throw new Error(hostile.problem);
    expect(Object.getPrototypeOf(hostile.tags)).toBe(Object.prototype);
    expect(Object.keys(hostile.tags ?? {})).toEqual(["__proto__"]);
  });
});
