import { describe, expect, it } from "vitest";
import { identityAndWholeTokens, tokensOf } from "../../src/mine/tokens.js";

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
