import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { align, mostAligned } from "../../src/mine/align.js";
import type { Alternatives } from "../../src/mine/alternatives.js";
import { tokensOf } from "../../src/mine/tokens.js";

const line = (text: string) => tokensOf(text, true);
const counts = (tokens: readonly string[]) => {
  const held = new Map<string, number>();
  for (const token of tokens) held.set(token, (held.get(token) ?? 0) + 1);
  return held;
};

describe("align, run after run with one merge's alternatives", () => {
  it("matches a word mistyped as a word of a line first aligned after the word was looked up", () => {
    const alternatives: Alternatives = new Map([["{{order.total}}", new Set(["{{invoice.total}}"])]]);
    // "recieve" is looked up first among words holding no form of it, then among a line's that do.
    expect(
      align(line("please recieve the parcel"), line("please collect the parcel"), alternatives).matched,
    ).toBe(3);
    expect(
      align(line("please recieve the parcel"), line("please receive the parcel"), alternatives).matched,
    ).toBe(4);
    expect(
      align(line("please recieve the parcel"), line("please collect the parcel"), alternatives).matched,
    ).toBe(3);
    expect(
      align(line("kindly recieve the parcel"), line("kindly receive the parcel"), alternatives).matched,
    ).toBe(4);
  });

  it("matches a mistyped word whatever letter it changes, inserts, drops or swaps", () => {
    const alternatives: Alternatives = new Map();
    const target = line("your shipment arrived today");
    for (const typed of ["shipmant", "xhipment", "shipmenx", "shipmen", "hipment", "shipmennt", "shpiment"])
      expect(align(line(`your ${typed} arrived today`), target, alternatives).matched).toBe(4);
    expect(align(line("your shipping arrived today"), target, alternatives).matched).toBe(3);
  });

  it("finds a line's words again with other alternatives, or none", () => {
    const target = line("please receive the parcel");
    expect(align(line("please recieve the parcel"), target).matched).toBe(4);
    expect(align(line("please recieve the parcel"), target, new Map()).matched).toBe(4);
  });
});

describe("mostAligned", () => {
  const most = (a: string, b: string, alternatives?: Alternatives) =>
    mostAligned(counts(line(a)), counts(line(b)), alternatives);

  it("counts the tokens both hold, a mistyped word, a value and an alternative, in any order", () => {
    expect(most("your parcel arrived today", "today your parcel arrived")).toBe(4);
    expect(most("please recieve the parcel", "please receive the parcel")).toBe(4);
    expect(most("paid on 12 may", "paid on {{invoice.paidOn}}")).toBe(3);
    const alternatives: Alternatives = new Map([
      ["authorise", new Set(["approve"])],
      ["approve", new Set(["authorise"])],
    ]);
    expect(most("please authorise the repair", "please approve the repair", alternatives)).toBe(4);
    expect(most("please authorise the repair", "please approve the repair")).toBe(3);
  });

  it("rules out lines whose words differ, however long they are", () => {
    expect(most("your parcel arrived crushed today", "the invoice remains unpaid since monday")).toBe(0);
    expect(most("the parcel was crushed", "the parcel was soaked")).toBe(3);
  });

  it("counts a word that matches another's word while its own copy matches a third", () => {
    // "parcels" can be one word with "parcel", which "parcel" itself matches in the other line.
    expect(most("parcel parcels", "parcel pardon")).toBeGreaterThanOrEqual(
      align(line("parcel parcels"), line("pardon parcel")).matched,
    );
  });

  it("is never below what an alignment matches", () => {
    const words = [
      "the",
      "your",
      "parcel",
      "parcels",
      "arrived",
      "arived",
      "today",
      "{{order.id}}",
      "12",
      "ok",
    ];
    const alternatives: Alternatives = new Map([
      ["arrived", new Set(["today"])],
      ["today", new Set(["arrived"])],
    ]);
    const sentence = fc
      .array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 })
      .map((list) => list.join(" "));
    const text = fc.array(sentence, { minLength: 1, maxLength: 4 }).map((list) => `${list.join(". ")}.`);
    fc.assert(
      fc.property(text, text, (a, b) => {
        const found = align(line(a), line(b), alternatives).matched;
        expect(most(a, b, alternatives)).toBeGreaterThanOrEqual(found);
      }),
      { numRuns: 500 },
    );
  });
});
