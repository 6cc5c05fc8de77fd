import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { align, alignedAtMost } from "../../src/mine/align.js";
import type { Alternatives } from "../../src/mine/alternatives.js";
import { numberToken, sentenceEnd, tokensOf } from "../../src/mine/tokens.js";

const line = (text: string) => tokensOf(text, true);
/** How many times a line holds each token, as `alignedAtMost` takes its first line. */
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

  it("aligns two lines alike whatever lines were aligned or compared before", () => {
    // What is kept between alignments (the first line's tokens, the numbers of the lines' tokens, the
    // mistyped words filed) must not change an alignment: a fresh copy of the alternatives starts anew.
    const tokens = [
      "the",
      "your",
      "parcel",
      "parcle",
      "arrived",
      "today",
      "{{order.id}}",
      numberToken,
      sentenceEnd,
    ];
    const alternatives: Alternatives = new Map([
      ["arrived", new Set(["today"])],
      ["today", new Set(["arrived"])],
    ]);
    const sequence = fc.array(fc.constantFrom(...tokens), { maxLength: 20 });
    fc.assert(
      fc.property(sequence, sequence, sequence, fc.boolean(), (a, b, c, learned) => {
        const known: Alternatives = learned ? alternatives : new Map();
        align(a, c, known);
        alignedAtMost(counts(a), c, known);
        align(c, b, known);
        alignedAtMost(counts(c), b, known);
        expect(align(a, b, known)).toEqual(align(a, b, new Map(known)));
      }),
      { numRuns: 1000 },
    );
  });

  it("finds a line's words again with other alternatives, or none", () => {
    const target = line("please receive the parcel");
    expect(align(line("please recieve the parcel"), target).matched).toBe(4);
    expect(align(line("please recieve the parcel"), target, new Map()).matched).toBe(4);
  });
});

describe("alignedAtMost", () => {
  const most = (a: string, b: string, alternatives: Alternatives = new Map()) =>
    alignedAtMost(counts(line(a)), line(b), alternatives);

  it("counts the tokens one line holds that are one word with the other's, in any order", () => {
    expect(most("your parcel arrived today", "today your parcel arrived")).toBe(4);
    expect(most("please recieve the parcel", "please receive the parcel")).toBe(4);
    expect(most("paid on 12 may", "paid on {{invoice.paidOn}}")).toBe(3);
    const alternatives: Alternatives = new Map([["authorise", new Set(["approve"])]]);
    expect(most("please authorise the repair", "please approve the repair", alternatives)).toBe(4);
    expect(most("please authorise the repair", "please approve the repair")).toBe(3);
  });

  it("counts a token as often as both lines hold it, or tokens it is one word with", () => {
    expect(most("the the the parcel", "the parcel")).toBe(2);
    expect(most("parcel parcel", "parcel parcels")).toBe(2);
    expect(most("12 12 12", "{{order.id}} {{order.total}}")).toBe(2);
  });

  it("rules out lines whose words differ, however long they are", () => {
    expect(most("your parcel arrived crushed today", "the invoice remains unpaid since monday")).toBe(0);
    expect(most("the parcel was crushed", "the parcel was soaked")).toBe(3);
  });

  it("counts the sentence ends of one line, which a clause moved counts without a partner", () => {
    const [a, b] = ["your your parcel.", "parcel your your 12."];
    expect(align(line(a), line(b)).matched).toBe(4);
    expect(most(a, b)).toBeGreaterThanOrEqual(4);
  });

  it("is never below what an alignment matches", () => {
    const tokens = [
      "the",
      "your",
      "ok",
      "parcel",
      "parcels",
      "parcle",
      "arrived",
      "arived",
      "today",
      "approve",
      "authorise",
      "{{order.id}}",
      "{{invoice.total}}",
      numberToken,
      sentenceEnd,
      sentenceEnd,
    ];
    const alternatives: Alternatives = new Map([
      ["arrived", new Set(["today"])],
      ["today", new Set(["arrived"])],
      ["approve", new Set(["authorise"])],
      ["ok", new Set(["the", "your"])],
    ]);
    const sequence = fc.array(fc.constantFrom(...tokens), { maxLength: 24 });
    fc.assert(
      fc.property(sequence, sequence, fc.boolean(), (a, b, learned) => {
        const known: Alternatives = learned ? alternatives : new Map();
        expect(alignedAtMost(counts(a), b, known)).toBeGreaterThanOrEqual(align(a, b, known).matched);
      }),
      { numRuns: 3000 },
    );
  });

  it("is never below what an alignment of lines longer than it aligns matches", () => {
    const a = Array.from({ length: 200 }, (_, at) => (at % 7 === 6 ? sentenceEnd : `word${at % 23}`));
    const b = [...a.slice(100), ...a.slice(0, 100)];
    expect(alignedAtMost(counts(a), b, new Map())).toBeGreaterThanOrEqual(align(a, b, new Map()).matched);
  });
});
