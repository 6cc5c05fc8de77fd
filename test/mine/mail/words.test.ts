import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wordCount, wordsOf } from "../../../src/mine/mail/words.js";

describe("wordCount", () => {
  it("counts the words wordsOf reads, up to the limit", () => {
    expect(wordCount("Thanks, we refunded it.", 4)).toBe(4);
    expect(wordCount("  — Best,\u00a0Anna  ", 9)).toBe(3);
    expect(wordCount("", 3)).toBe(0);
    const unit = fc.constantFrom(" ", "\t", "\u00a0", "\u2003", "a", "Bé", ",", "—", "\ud83d\ude00");
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), fc.integer({ min: 0, max: 8 }), (units, limit) => {
        const line = units.join("");
        expect(wordCount(line, limit)).toBe(Math.min(wordsOf(line, 1000).length, limit));
      }),
    );
  });
});
