import { describe, expect, it } from "vitest";
import { amountNeighbourProblem } from "../../../src/core/definition/amount-neighbours.js";
import { compileBody } from "../../../src/core/definition/text-parts.js";

const counted = new Set(["refund.amount"]);
const problemOf = (text: string) => amountNeighbourProblem(compileBody(text, "body").parts, counted)?.message;

describe("an amount a ceiling counts stands apart from the template's own text", () => {
  it.each([
    ["a digit after it", "We refund {{refund.amount}}0 today.", /the digit "0" is written right after it/],
    ["a digit before it", "We refund 1{{refund.amount}} today.", /the digit "1" is written right before it/],
    ["a multiplier letter", "We refund {{refund.amount}}k.", /the letter "k" is written right after it/],
    ["a Greek letter", "We refund {{refund.amount}}Μ.", /the letter "Μ"/],
    ["a CJK number word", "返金額は{{refund.amount}}万です。", /the number word "万"/],
    ["a minus sign before it", "Balance: -{{refund.amount}}", /the sign "-" is written right before it/],
    ["a Unicode minus before it", "Balance: \u2212{{refund.amount}}", /the sign "\u2212"/],
    ["a decimal mark and digits", "We refund {{refund.amount}},50.", /",5", which continues the number/],
    ["digits and a mark before it", "We refund 1.{{refund.amount}}.", /"1\.", which continues the number/],
    ["another value", "We refund {{refund.amount}}{{refund.id}}.", /the value \{\{refund\.id\}\}/],
    ["an Arabic-Indic digit", "نرد {{refund.amount}}٠", /the digit "٠"/],
    ["a full-width digit", "返金 {{refund.amount}}０", /the digit "０"/],
    ["a digit behind a zero-width space", "We refund {{refund.amount}}\u200B0.", /the digit "0"/],
    ["a digit behind a combining mark", "We refund {{refund.amount}}\u03010.", /the digit "0"/],
    [
      "a digit after a section that may be empty",
      "We refund {{refund.amount}}{{#note}} (see note){{/note}}5.",
      /the digit "5" is written right after it/,
    ],
    [
      "a digit inside a section right after it",
      "We refund {{refund.amount}}{{#note}}7{{/note}}.",
      /the digit "7" is written right after it/,
    ],
    [
      "a digit before a section it closes",
      "{{#note}}We refund 3{{/note}}{{refund.amount}}.",
      /the digit "3" is written right before it/,
    ],
  ])("refuses %s", (_name, text, message) => {
    expect(problemOf(text)).toMatch(message);
    expect(problemOf(text)).toMatch(/^\{\{refund\.amount\}\} is counted by a ceiling, and /);
  });

  it.each([
    ["ends a sentence", "We refund {{refund.amount}}."],
    ["in brackets and quotes", "We refund ({{refund.amount}}) and «{{refund.amount}}»."],
    ["before a comma and a word", "We refund {{refund.amount}}, which is final."],
    ["in Japanese, with no spaces", "返金額は{{refund.amount}}をお支払いします。"],
    ["in Thai", "คืนเงิน{{refund.amount}}แล้ว"],
    ["with a non-breaking space and a code", "Refund:\u00A0{{refund.amount}}\u00A0EUR"],
    ["a value not counted, written against digits", "Order 12{{refund.id}}3, refund {{refund.amount}}."],
    ["after a colon or a dash with spaces", "Refund: {{refund.amount}} – final"],
  ])("accepts an amount that %s", (_name, text) => {
    expect(problemOf(text)).toBeUndefined();
  });

  it("follows a thousand nested optional sections in linear work", () => {
    const sections = "{{#note}}".repeat(1000) + "{{/note}}".repeat(1000);
    expect(problemOf(`We refund {{refund.amount}}${sections}9.`)).toMatch(/the digit "9"/);
    expect(problemOf(`We refund {{refund.amount}}${sections}.`)).toBeUndefined();
  });
});
