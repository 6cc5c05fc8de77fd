import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSampleTickets } from "../../src/cli/preview-tickets.js";
import { cli } from "./run.js";

let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "formletter-preview-options-"));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("formletter preview: sample tickets and options", () => {
  it("reads one ticket, or an array of them, from --records", () => {
    const one = join(directory, "one.json");
    writeFileSync(one, JSON.stringify({ ticketId: "T-9", orders: [] }));
    expect(readSampleTickets({ records: one }).ids).toEqual(["T-9"]);
    const many = join(directory, "many.json");
    writeFileSync(many, JSON.stringify([{ ticketId: "T-1" }, { orders: [] }, 42]));
    const read = readSampleTickets({ records: many });
    expect(read.ids).toEqual(["T-1", "ticket 2", "ticket 3"]);
    expect(read.records).toHaveLength(3);
  });

  it("reads --history lines, taking the line's ticket id where the records leave it out, and skips the rest", () => {
    const file = join(directory, "history.jsonl");
    writeFileSync(
      file,
      [
        JSON.stringify({ ticketId: "T-1", records: { orders: [] } }),
        "not json",
        JSON.stringify({ ticketId: "T-2" }),
        JSON.stringify({ ticketId: "T-3", records: { ticketId: "T-3b" } }),
        '{"ticketId":"T-4","records":{"__proto__":{"polluted":true}}}',
        "",
      ].join("\n"),
    );
    const read = readSampleTickets({ history: file });
    expect(read.ids).toEqual(["T-1", "T-3b", "T-4"]);
    expect(read.records[0]).toEqual({ ticketId: "T-1", orders: [] });
    expect(read.skipped).toBe(2);
    expect(Object.hasOwn(read.records[2] as object, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((read.records[2] as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    [["--records", "a.json", "--history", "b.jsonl"], /--records or --history, not both/],
    [["--limit", "0"], /--limit 0: give a whole number/],
    [["--port", "70000"], /--port 70000: give a whole number/],
    [["--records", "/nonexistent/file.json"], /cannot read/],
  ])("refuses %j with one line", async (extra, message) => {
    const result = await cli(["preview", "--catalog", "templates/seller.ts", ...extra, "--out", directory]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });

  it("refuses a catalog module that does not exist", async () => {
    const result = await cli(["preview", "--catalog", join(directory, "missing.ts"), "--out", directory]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no catalog module/);
  });
});
