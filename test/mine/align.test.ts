import { describe, expect, it } from "vitest";
import { align } from "../../src/mine/align.js";
import type { Alternatives } from "../../src/mine/alternatives.js";
import { tokensOf } from "../../src/mine/tokens.js";

const line = (text: string) => tokensOf(text, true);

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
