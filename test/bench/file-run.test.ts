import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { fileRun } from "../../bench/mining/file-run.js";

/** The temporary folders a run makes, by their prefix. */
const folders = () => readdirSync(tmpdir()).filter((name) => name.startsWith("formletter-mine-")).length;

describe("fileRun", () => {
  it("hands the pass every line back from the file, in order, and removes the file after", async () => {
    // More lines than are written at a time, some with characters of more than one byte.
    const lines = Array.from({ length: 25_003 }, (_, at) => `{"n":${at},"text":"é ${"x".repeat(at % 7)}"}`);
    const before = folders();
    const read: unknown[] = [];
    let during = 0;
    const run = await fileRun(lines, async (from) => {
      during = folders();
      for await (const line of from) read.push(line);
    });
    expect(read).toEqual(lines);
    expect(run.lines).toBe(lines.length);
    expect(run.seconds).toBeGreaterThan(0);
    expect(during).toBe(before + 1);
    expect(folders()).toBe(before);
  });

  it("removes its file when the pass throws, and throws what the pass threw", async () => {
    const before = folders();
    await expect(
      fileRun(["a", "b"], async () => {
        throw new Error("the pass failed");
      }),
    ).rejects.toThrow("the pass failed");
    expect(folders()).toBe(before);
  });
});
