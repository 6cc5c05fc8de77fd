import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dateValue } from "../../src/mine/date-renderings.js";
import { normalize } from "../../src/mine/normalize.js";
import { HeldDigits, textDigits } from "../../src/mine/text-digits.js";
import {
  bitsIn,
  isWordUnit,
  plainWordsMayBeIn,
  wholeWords,
  wordBitsOf,
  wordsAndDigits,
  wordsMayBeIn,
} from "../../src/mine/whole-words.js";

const letterOrDigit = /[\p{L}\p{N}]/u;

/** Whether `value` occurs in `text` with no letter or digit on either side, as masking finds it. */
function foundWhole(text: string, value: string): boolean {
  const outside = (at: number) => at < 0 || at >= text.length || !letterOrDigit.test(text[at] as string);
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1))
    if (outside(at - 1) && outside(at + value.length)) return true;
  return false;
}

describe("the whole words of a text", () => {
  const word = fc.constantFrom("ana", "Ana", "12", "2026", "ß", "İ", "日本", "x-1", "𝐀", "é", "e\u0301");
  const text = fc.array(
    fc.oneof(word, fc.constantFrom(" ", "-", ".", "\n", ","), fc.string({ unit: "grapheme", maxLength: 4 })),
    { maxLength: 12 },
  );

  it("reads a unit as a letter or digit as masking's boundaries do", () => {
    for (const unit of [0x41, 0x7a, 0x30, 0x2d, 0x20, 0xe9, 0x301, 0x65e5, 0xd835, 0xdc00])
      expect(isWordUnit(unit)).toBe(letterOrDigit.test(String.fromCharCode(unit)));
  });

  it("never rules out a value the text holds whole", () => {
    fc.assert(
      fc.property(text, fc.nat(11), fc.nat(11), (pieces, from, count) => {
        const lowered = normalize(pieces.join(""));
        const value = normalize(pieces.slice(from, from + count).join(""));
        fc.pre(value !== "" && foundWhole(lowered, value));
        const words = wholeWords(lowered);
        expect(wordsMayBeIn(words, value)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("reads the digits of a text lower-cased to ASCII as the text's own", () => {
    const piece = fc.oneof(
      word,
      fc.constantFrom(" ", "\n\t", "0", "42", "\u212a", "\u0130", "\uff11", "\u0663", "\u00b2", "Σ"),
      fc.string({ unit: "grapheme", maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const written = pieces.join("");
        const lowered = normalize(written);
        const { words, digits } = wordsAndDigits(lowered);
        // The set of bits is one buffer, refilled by each call: copied before the other is read.
        const bits = Uint32Array.from(words);
        expect(bits).toEqual(Uint32Array.from(wholeWords(lowered)));
        if (/^[\x00-\x7f]*$/.test(lowered)) expect(digits).toBe(textDigits(written));
        else expect(digits).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it("tells from a value's word bits, read once, what reading the value tells", () => {
    fc.assert(
      fc.property(text, text, (pieces, others) => {
        const words = wholeWords(normalize(pieces.join("")));
        const value = others.join("");
        expect(bitsIn(words, wordBitsOf(value))).toBe(wordsMayBeIn(words, value));
        expect(bitsIn(words, wordBitsOf(pieces.join("")))).toBe(wordsMayBeIn(words, pieces.join("")));
      }),
      { numRuns: 500 },
    );
  });

  it("rules out a value one of whose words the text holds only inside a longer word", () => {
    const words = wholeWords(normalize("Dear Joanne, your order 12345 ships today."));
    expect(wordsMayBeIn(words, "joanne")).toBe(true);
    expect(wordsMayBeIn(words, "order 12345")).toBe(true);
    expect(wordsMayBeIn(words, "anne")).toBe(false);
    expect(wordsMayBeIn(words, "1234")).toBe(false);
    expect(plainWordsMayBeIn(words, "Joanne  Smith")).toBe(false);
    // Not printable ASCII: cleaning may change it, so it is never ruled out as it is written.
    expect(plainWordsMayBeIn(words, "Sm\u200bith")).toBe(true);
  });
});

describe("the digits a text holds", () => {
  it("holds a run exactly where the digits include it", () => {
    const digits = fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 40 });
    fc.assert(
      fc.property(digits, fc.array(digits, { maxLength: 6 }), (text, runs) => {
        const held = new HeldDigits(text);
        const other = new HeldDigits(`${text}9`);
        for (const run of [...runs, text.slice(3, 11), "1e+21", "NaN"]) {
          expect(held.holds(run)).toBe(text.includes(run));
          // Asking about another text's digits in between changes nothing.
          expect(other.holds(run)).toBe(`${text}9`.includes(run));
          expect(held.holds(run)).toBe(text.includes(run));
        }
      }),
    );
  });
});

describe("the runs of four digits a text holds", () => {
  it("holds four digits exactly where the digits include them", () => {
    const digits = fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 40 });
    fc.assert(
      fc.property(digits, fc.array(fc.integer({ min: 0, max: 9999 }), { maxLength: 8 }), (text, fours) => {
        const held = new HeldDigits(text);
        for (const four of [...fours, Number(text.slice(0, 4) || "0")])
          expect(held.holdsFour(four)).toBe(text.includes(String(four).padStart(4, "0")));
      }),
    );
  });
});

describe("the date a value holds", () => {
  const pad = (n: number, width: number) => String(n).padStart(width, "0");

  it("reads a day and a UTC instant to the second as the ISO expression and Date do", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 900, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 61 }),
        fc.integer({ min: 0, max: 61 }),
        (year, month, day, hour, minute, second) => {
          const date = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          const check = new Date(Date.UTC(year, month - 1, day));
          const isDay = year >= 1000 && check.getUTCMonth() === month - 1 && check.getUTCDate() === day;
          expect(dateValue(date)).toEqual(isDay ? { kind: "day", year, month, day } : undefined);
          const stamp = `${date}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}Z`;
          const at = new Date(stamp);
          const isInstant = isDay && hour <= 23 && minute <= 59 && !Number.isNaN(at.getTime());
          expect(dateValue(stamp)).toEqual(isInstant ? { kind: "instant", at } : undefined);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("reads other shapes by the expression", () => {
    expect(dateValue("2026-03-05 09:30")).toEqual({
      kind: "wall",
      year: 2026,
      month: 3,
      day: 5,
      hour: 9,
      minute: 30,
    });
    // With its offset, the day and time as written too; UTC's offset names no other clock.
    expect(dateValue("2026-03-05T09:30:00+01:00")).toEqual({
      kind: "instant",
      at: new Date("2026-03-05T08:30:00Z"),
      written: { year: 2026, month: 3, day: 5, hour: 9, minute: 30 },
    });
    expect(dateValue("2026-03-05T09:30:00+00:00")).toEqual({
      kind: "instant",
      at: new Date("2026-03-05T09:30:00Z"),
    });
    expect(dateValue("2026-03-05T09:30:00z")).toBeUndefined();
    expect(dateValue("2026-3-05")).toBeUndefined();
  });

  it("reads a value the same when asked again, right after or after another", () => {
    const values = ["2026-03-05", "2026-03-05T09:30:00Z", "2026-02-31", "2026-03-05 09:30", "2026-3-05"];
    const first = values.map((value) => dateValue(value));
    for (const [at, value] of values.entries()) {
      expect(dateValue(value)).toEqual(first[at]);
      expect(dateValue(value)).toEqual(first[at]);
      // The same text in another string.
      expect(dateValue(` ${value}`.slice(1))).toEqual(first[at]);
    }
    expect(first[0]).toEqual({ kind: "day", year: 2026, month: 3, day: 5 });
    expect(first[2]).toBeUndefined();
  });
});
