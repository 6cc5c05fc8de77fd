import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pairId, pairOf, pairText, tokenId } from "../../src/mine/interned.js";
import { signature } from "../../src/mine/minhash.js";
import {
  identityAndWholeReading,
  identityAndWholeTokens,
  sentenceEnd,
  sentenceTokensOf,
  tokensOf,
} from "../../src/mine/tokens.js";

describe("a message's identity and whole skeleton read at once", () => {
  const cases: [identity: string, whole: string][] = [
    [
      "Your claim {{claim.id}} is settled. Paid 40. May we help?",
      "Your claim {{claim.id}} is settled. Paid 40. May we help?",
    ],
    [
      "Your claim is settled. Paid 40. May we help?",
      "Hello Anna, Your claim is settled. Paid 40. May we help?",
    ],
    // A month name after the greeting's number is a date only when read with it.
    ["May we call you (on Monday)?", "Ruf 3 May we call you (on Monday)?"],
    ["  leading spaces, then words.", "Hi,  leading spaces, then words."],
    // Not the greeting and a space before it: the whole is read on its own.
    ["claim settled.", "Hi,claim settled."],
    ["claim settled.", "something else entirely"],
    ["", "Hello there"],
  ];
  it("gives what reading each alone gives", () => {
    for (const [identity, whole] of cases)
      expect(identityAndWholeTokens(identity, whole)).toEqual({
        identity: tokensOf(identity, true),
        whole: tokensOf(whole),
      });
  });

  it("gives the identity's token ids beside its tokens, a date's name made a number token too", () => {
    for (const [identity, whole] of cases) {
      const read = identityAndWholeReading(identity, whole);
      expect({ identity: read.identity, whole: read.whole }).toEqual(identityAndWholeTokens(identity, whole));
      expect(read.identityIds).toEqual(idsOf(read.identity));
      const own = sentenceTokensOf(whole);
      expect(own.tokens).toEqual(tokensOf(whole, true));
      expect(own.ids).toEqual(idsOf(own.tokens));
    }
  });

  it("reads a chunk read before as it read it the first time", () => {
    const first = tokensOf("Dear (Anna) the invoice INV-2026 was paid on 3 May. Thanks!", true);
    expect(tokensOf("Dear (Anna) the invoice INV-2026 was paid on 3 May. Thanks!", true)).toEqual(first);
    expect(first).toEqual([
      "dear",
      "§",
      "anna",
      "§",
      "the",
      "invoice",
      "<#>",
      "was",
      "paid",
      "on",
      "<#>",
      "<#>",
      "§",
      "thanks",
      "§",
    ]);
  });

  it("reads a long chunk read before (a placeholder with its stop) as it read it the first time", () => {
    const text = "Claim {{claim.number}}. ({{policyholder.name}}) paid {{claim.amount}}, user_identifier=x1";
    const first = tokensOf(text, true);
    expect(first).toEqual([
      "claim",
      "{{claim.number}}",
      "§",
      "{{policyholder.name}}",
      "§",
      "paid",
      "{{claim.amount}}",
      "user",
      "identifier",
      "<#>",
    ]);
    expect(tokensOf(`Hi ${text}`, true)).toEqual(["hi", ...first]);
  });
});

/** What a token's id is expected to be: its pooled id, none (-1) for a sentence's end. */
const idsOf = (tokens: readonly string[]) =>
  tokens.map((token) => (token === sentenceEnd ? -1 : tokenId(token)));

describe("token ids", () => {
  it("are one per text, and find a pair's one pooled string as its two tokens do", () => {
    const [first, second] = sentenceTokensOf("Settled claims settled").ids;
    expect(first).toBeGreaterThanOrEqual(0);
    expect(tokenId("settled")).toBe(first);
    expect(tokenId("never written anywhere")).toBe(-1);
    const pair = pairId(first as number, second as number);
    expect(pairText(pair)).toBe("settled claims");
    expect(pairOf("settled", "claims")).toBe(pairText(pair));
    expect(pairId(second as number, first as number)).not.toBe(pair);
    expect(pairId(-1, first as number)).toBe(-1);
  });

  it("give the signature the set's own strings give", () => {
    const { tokens, ids } = sentenceTokensOf("Your claim {{claim.id}} is settled. Paid 40 on 3 May.");
    const words = new Set<string>();
    const wordIds: number[] = [];
    tokens.forEach((token, at) => {
      if (token === sentenceEnd || words.has(token)) return;
      words.add(token);
      wordIds.push(ids[at] as number);
    });
    // Twice: the second time, each word's values are read again rather than computed.
    expect(signature(words, wordIds)).toEqual(signature(words));
    expect(signature(words, wordIds)).toEqual(signature(words));
    // A word with no id is hashed as it is.
    expect(signature(new Set(["settled", "unpooled"]), [tokenId("settled"), -1])).toEqual(
      signature(new Set(["settled", "unpooled"])),
    );
  });
});

describe("tokens", () => {
  it("never hold white space nor are empty, whatever the text: a line's tokens are sent joined by spaces", () => {
    // Every kind of space, a placeholder whose field name has one, dates, clauses and stops.
    const pieces = fc.constantFrom(
      " ",
      "\u00a0",
      "\t",
      "\n",
      "\u2009",
      "\u3000",
      "a",
      "B",
      "1",
      ".",
      ",",
      "(",
      ")",
      "=",
      ":",
      "-",
      "é",
      "März",
      "3.",
      "{{orders.due date}}",
      "10:25",
      "2026-03-01",
      sentenceEnd,
    );
    const text = fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, (written) => {
        const read = identityAndWholeReading(written, `Hi ${written}`);
        for (const token of [
          ...tokensOf(written),
          ...sentenceTokensOf(written).tokens,
          ...read.identity,
          ...read.whole,
        ])
          expect(token).toMatch(/^\S+$/);
      }),
      { numRuns: 3000, seed: 36 },
    );
  });
});
