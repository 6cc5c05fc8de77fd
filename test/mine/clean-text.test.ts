import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sanitizeValue } from "../../src/core/message/sanitize.js";
import { cleanText } from "../../src/mine/clean-text.js";

// Cleaning folds spaces and line breaks by hand for text NFKC leaves alone: it must give what the SDK's
// full cleaning gives, character for character.
const cleaned = (text: string) => sanitizeValue(text, { multiline: true, neutralize: false });
const plain = /^[\t\n\r\x20-\x7e\u00a0\u00c0-\u00ff\u202f\u20ac]*$/;

describe("cleanText", () => {
  it("folds spaces, no-break spaces and line breaks as the SDK's cleaning does", () => {
    const text = " Grüße · Anna\u00a0 Kern\t– 😊 \r\n\r\n\r\n\r\n ✅ ‘ok’  \u202f\r";
    expect(cleanText(text)).toBe("Grüße · Anna Kern – 😊\n\n✅ ‘ok’");
    expect(cleanText(text)).toBe(cleaned(text));
  });

  it("leaves a clean text as it is", () => {
    const text = "Viele Grüße · Nadia\n\nIhr Team · +49 40 3332213 ✅";
    expect(cleanText(text)).toBe(text);
  });

  it("cleans hidden characters and compatibility forms as the SDK does", () => {
    for (const text of ["a\u200bb · c", "ﬁle · x", "½ · €", "e\u0301 · x", "x\u2028y · z", "𝐀 · b"])
      expect(cleanText(text)).toBe(cleaned(text));
  });

  it("reads an emoji as the one character its surrogate pair is, and a lone surrogate as none", () => {
    expect(cleanText("Danke ·  Anna 😊")).toBe("Danke · Anna 😊");
    for (const text of [
      "Danke  😊",
      "Danke  \ud83d",
      "Danke  \ud83d x",
      "Danke  \ude0a",
      "\ude0a\ud83d  x",
      "😊\u2800  x",
    ])
      expect(cleanText(text)).toBe(cleaned(text));
  });

  it("gives the SDK's cleaning for each character beside spaces and line breaks", () => {
    // Latin, punctuation, symbols and dingbats, and the emoji blocks: where the folded characters are.
    const codes = [...range(0x80, 0x3000), ...range(0x1f000, 0x1fb00)];
    for (const code of codes) {
      const char = String.fromCodePoint(code);
      const text = ` a${char}b  \r\n ${char}·\n\n\n`;
      if (cleanText(text) !== cleaned(text)) expect.fail(`U+${code.toString(16)}: ${JSON.stringify(text)}`);
    }
  });

  it("gives the SDK's cleaning for any mix of letters, marks, spaces and breaks", () => {
    const pieces = [..."ab ZÄß·–‘’😊✅İıĲś\t\r\n\n  \u00a0\u202f\u00ad\u200bﬁ½\u2028\u3000"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (chars) => {
        const text = chars.join("");
        if (plain.test(text)) return;
        expect(cleanText(text)).toBe(cleaned(text));
      }),
    );
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, at) => from + at);
}
