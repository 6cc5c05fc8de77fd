import { describe, expect, it } from "vitest";
import { asciiDigits } from "../../src/mine/ascii-digits.js";

describe("asciiDigits", () => {
  it.each([
    ["Arabic-Indic", "\u0664\u0669 \u0661\u0665\u0661", "49 151"],
    ["Extended Arabic-Indic", "\u06f0\u06f8", "08"],
    ["Devanagari beside Latin", "Nr. \u0967\u0968\u0969-ab", "Nr. 123-ab"],
    ["fullwidth", "\uff10\uff19", "09"],
  ])("writes %s digits as ASCII digits, in as many units", (_, text, expected) => {
    expect(asciiDigits(text)).toBe(expected);
  });

  it("leaves a text with no other script's digit as it is", () => {
    for (const text of ["Grüße, Anna: 12 Äpfel für 3,50 €", "", "① ⑳ Ⅻ", "\u{1d7ce}\u{1d7cf}"])
      expect(asciiDigits(text)).toBe(text);
  });
});
