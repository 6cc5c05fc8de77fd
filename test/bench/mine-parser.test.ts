import { describe, expect, it } from "vitest";
import { mineParser } from "../../bench/mining/mine-parser.js";

describe("mineParser", () => {
  it("gives one label per line, the same to lines of one template and another to a different one", () => {
    const lines = [
      "Received block of size 67108864 from node seven",
      "Received block of size 3545 from node nine",
      "Deleting expired session for user maria after logout",
      "Received block of size 91178 from node two",
    ];
    const labels = Array.from(mineParser.parse(lines));
    expect(labels).toHaveLength(lines.length);
    expect(labels[1]).toBe(labels[0]);
    expect(labels[3]).toBe(labels[0]);
    expect(labels[2]).not.toBe(labels[0]);
  });

  it("takes no lines and empty lines", () => {
    expect(Array.from(mineParser.parse([]))).toEqual([]);
    expect(Array.from(mineParser.parse(["", ""]))).toHaveLength(2);
  });
});
