import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isBlank } from "../../../src/mine/mail/blank.js";

describe("isBlank", () => {
  it.each([
    ["", true],
    [" \t\r\f\v", true],
    ["\u00a0\u202f\u3000\ufeff\u2028", true],
    [" x ", false],
    ["\u00a0·", false],
    ["\u200b", false],
  ])("%j is blank: %s", (line, blank) => {
    expect(isBlank(line)).toBe(blank);
  });

  it("reads a line as trimming does", () => {
    const unit = fc.constantFrom(
      " ",
      "\t",
      "\n",
      "\u00a0",
      "\u2000",
      "\u200b",
      "\u180e",
      "\ufeff",
      "a",
      "·",
      "\ud83d",
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 6 }), (units) => {
        const line = units.join("");
        expect(isBlank(line)).toBe(line.trim() === "");
      }),
    );
  });
});
