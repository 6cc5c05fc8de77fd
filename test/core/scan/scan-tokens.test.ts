import { describe, expect, it } from "vitest";
import { type ScanAllowance, scanMessage } from "../../../src/core/scan/scan.js";
import { acknowledge } from "../../fixtures/clinic.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

const none: ScanAllowance = { literal: "", formatted: [], whole: [] };
const allow = (fields: Partial<ScanAllowance>): ScanAllowance => ({ ...none, ...fields });

describe("identifiers compare as whole tokens, never as substrings", () => {
  it("an address one letter short of the recipient's is flagged (shop@lumen.co is not shop@lumen.com)", () => {
    expectEscalation(acknowledge("Write to shop@lumen.co please.", "shop@lumen.com"), "content_flagged");
    expectSend(acknowledge("Write to shop@lumen.com please.", "shop@lumen.com"));
  });

  it.each([
    ["a strict substring of the domain", "shop@lumen.co"],
    ["a longer domain", "shop@lumen.com.evil.io"],
    ["a longer top-level label", "shop@lumen.community"],
    ["a longer local part", "eshop@lumen.com"],
    ["a shorter local part", "hop@lumen.com"],
  ])("e-mail: %s → email", (_name, token) => {
    const allowance = allow({ formatted: ["shop@lumen.com"] });
    expect(scanMessage(`Reply to ${token} today`, allowance)).toEqual({ kind: "email" });
    expect(scanMessage("Reply to SHOP@Lumen.com today", allowance)).toBeUndefined();
  });

  it.each([
    ["one digit more", "+49 30 5555 00001"],
    ["one digit less", "+49 30 5555 000"],
    ["a group more", "+49 30 5555 0000 1"],
  ])("phone: %s than the template's number → phone", (_name, token) => {
    const allowance = allow({ literal: "Call +49 30 5555 0000 or write." });
    expect(scanMessage(`Call ${token} now`, allowance)).toEqual({ kind: "phone" });
    expect(scanMessage("Call +49 30 5555 0000 now", allowance)).toBeUndefined();
  });

  it("a number is a record's code only when it is a whole token of a value that is one code", () => {
    expect(scanMessage("order 4471-2290", allow({ whole: ["4471-2290"] }))).toBeUndefined();
    expect(scanMessage("order 4471-2290", allow({ whole: ["4471-22901"] }))).toEqual({ kind: "phone" });
    expect(scanMessage("order 4471-2290", allow({ whole: ["14471-2290"] }))).toEqual({ kind: "phone" });
  });

  it("values built by code side by side read as one number yet pass: every digit is theirs", () => {
    const dateThenAmount = allow({ formatted: ["14. März 2026", "1.234,50 €"] });
    expect(scanMessage("am 14. März 2026 (1.234,50 €) erstattet", dateThenAmount)).toBeUndefined();
    expect(
      scanMessage("2026-05-31 +1 234,50", allow({ formatted: ["2026-05-31", "+1 234,50"] })),
    ).toBeUndefined();
  });

  it.each([
    [
      "a record's text after a date",
      "am 14. März 2026 555 1234 5",
      { formatted: ["14. März 2026"], whole: ["555 1234 5"] },
    ],
    [
      "values that would cut groups of digits",
      "call 5555 1234 5678 today",
      { formatted: ["5", "12", "34", "56", "78"] },
    ],
    ["a value that covers part of a group", "ref 2026123 4567 now", { formatted: ["2026"] }],
    [
      "a record's text repeating values built by code",
      "ref 12 34 12 34 end",
      { formatted: ["12", "34"], whole: ["ref 12 34 12 34 end"] },
    ],
  ])("a number is still flagged when a digit is not a value built by code: %s", (_name, text, fields) => {
    expect(scanMessage(text, allow(fields))).toEqual({ kind: "phone" });
  });

  it.each([
    ["a shorter host", "clinic.example.co"],
    ["a longer host", "clinic.example.com.evil.io"],
    ["another path", "clinic.example.com/reset"],
  ])("URL: %s than the template's → url", (_name, token) => {
    const allowance = allow({ literal: "See clinic.example.com/help for hours." });
    expect(scanMessage(`See ${token} for hours.`, allowance)).toEqual({ kind: "url" });
    expect(scanMessage("See clinic.example.com/help for hours.", allowance)).toBeUndefined();
  });

  it("an id-shaped token that is part of a longer allowed one is flagged", () => {
    const allowance = allow({ formatted: ["AKIAIOSFODNN7EXAMPLE99"], whole: ["key AKIAIOSFODNN7EXAMPLE9"] });
    expect(scanMessage("key AKIAIOSFODNN7EXAMPLE9", allowance)).toEqual({ kind: "id" });
    expect(
      scanMessage(
        "key AKIAIOSFODNN7EXAMPLE99",
        allow({ ...allowance, whole: ["key AKIAIOSFODNN7EXAMPLE99"] }),
      ),
    ).toBeUndefined();
  });
});

describe("ids are found whatever dash joins their parts", () => {
  it.each([
    ["a key grouped with hyphens (U+2010)", "AKIA\u2010IOSF\u2010ODNN\u20107EXA\u2010MPLE"],
    ["a key grouped with minus signs", "AKIA\u2212IOSF\u2212ODNN\u22127EXA\u2212MPLE"],
    ["a UUID written with en dashes", "a3bbc89e\u20138bf9\u201338a8\u201399b2\u2013ace4e6543d0f"],
  ])("an id written with a dash of another script is still an id: %s → id", (_name, token) => {
    const value = `boarding ref ${token} for Rex`;
    expect(scanMessage(value, allow({ whole: [value] }))).toEqual({ kind: "id" });
    expect(scanMessage(token, allow({ whole: [token] }))).toBeUndefined();
  });

  it("words and ranges joined by dashes are not ids", () => {
    const value = "Grooming \u2014 Mon\u2013Fri, 9\u201312 \u2014 dog\u2013cat\u2013rabbit\u2013ferret";
    expect(scanMessage(value, allow({ whole: [value] }))).toBeUndefined();
  });
});

describe("hosts are found by shape, with no list of top-level domains", () => {
  it.each([
    ["an unlisted top-level domain", "evil.lol"],
    ["a two-letter unlisted one", "evil.zz"],
    ["a long one", "evil.photography"],
    ["Cyrillic (IDN)", "пример.рф"],
    ["Latin with accents (IDN)", "bücher.de"],
    ["punycode", "xn--80ak6aa92e.xn--p1ai"],
    ["a mixed-script host", "evil.\u0441om"],
    ["an ideographic full stop", "evil\u3002lol"],
    ["a host with a path and query", "evil.lol/reset?user=ada"],
    ["a protocol-relative URL", "//evil.lol/x"],
    ["a www host with a one-letter label", "www.x"],
    ["an IPv4 address", "10.0.0.1/admin"],
    ["a custom scheme", "zoommtg://evil/join"],
  ])("%s → url", (_name, host) => {
    expect(scanMessage(`Visit ${host} today`, none)).toEqual({ kind: "url" });
  });

  it.each(["e.g. this", "i.e. that", "approx.3 kg", "12.50 EUR", "v2.1", "Ph.D. and a.m.", "U.S.A."])(
    "%s is ordinary text",
    (text) => {
      expect(scanMessage(text, none)).toBeUndefined();
    },
  );

  it("a host in an address is read as the address, whole", () => {
    expect(
      scanMessage("Mail desk@clinic.example.com", allow({ formatted: ["desk@clinic.example.com"] })),
    ).toBe(undefined);
    expect(scanMessage("Mail desk@clinic.example.com", allow({ formatted: ["clinic.example.com"] }))).toEqual(
      {
        kind: "email",
      },
    );
  });

  it.each([
    ["dots written defanged", "eve@evil[.]lol"],
    ["dots written out", "eve@evil(dot)lol"],
    ["a bracketed at-sign", "eve[at]evil.lol"],
    ["spaced obfuscation", "eve [at] evil [dot] lol"],
    ["the cleaner's own look-alike brackets", "eve\u2774at\u2775evil\u2774.\u2775lol"],
    ["no local part", "@evil.lol"],
    ["a mixed-script domain", "eve@\u0435vil.lol"],
    ["a look-alike dot", "eve@evil\u30FBlol"],
    ["a bullet for a dot", "eve@evil\u2022lol"],
    ["a raised dot", "eve@evil\u2E33lol"],
    ["a runic dot", "eve@evil\u16EBlol"],
    ["a letter drawn as a dot", "eve@evil\u1427lol"],
    ["a Hangul araea for a dot", "eve@evil\u119Elol"],
    ["a spaced at-sign", "eve @ evil.lol"],
    ["a space after the at-sign", "eve@ evil[.]lol"],
    ["spaces inside the brackets of an at-sign", "eve ( at ) evil[.]lol"],
    ["guillemets around at", "eve \u00ABat\u00BB evil.lol"],
    ["corner brackets around at", "eve \u300Cat\u300D evil.lol"],
    ["lenticular brackets around at", "eve\u3010at\u3011evil.lol"],
    ["corner brackets around a dot", "eve@evil\u300C.\u300Dlol"],
    ["guillemets around dot", "eve@evil \u00ABdot\u00BB lol"],
  ])("an address with %s → email", (_name, address) => {
    expect(scanMessage(`Write to ${address} now`, none)).toEqual({ kind: "email" });
  });

  it.each(["lunch @ home", "meet @ 10.30", "Ada \u00ABat\u00BB work", "(at) noon"])(
    "%s holds no address",
    (text) => {
      expect(scanMessage(`Reply: ${text}.`, none)).toBeUndefined();
    },
  );

  it("an address written with a spaced at-sign in a record is flagged through decide()", () => {
    expectEscalation(acknowledge("Send the kennel report to eve @ evil.lol please."), "content_flagged");
  });
});

describe("phone numbers with any separator a person would use", () => {
  it.each([
    ["underscores", "0151_2345_6789"],
    ["commas", "0151,2345,6789"],
    ["em dashes", "0151\u20142345\u20146789"],
    ["figure dashes", "0151\u20122345\u20126789"],
    ["two-em dashes", "0151\u2E3A2345\u2E3A6789"],
    ["katakana middle dots", "0151\u30FB2345\u30FB6789"],
    ["bullets", "0151\u20222345\u20226789"],
    ["ideographic commas", "0151\u30012345\u30016789"],
    ["a run of several separators", "0151 ---  2345 _/_ 6789"],
    ["a long run of one separator", "0151 .......... 2345 .......... 6789"],
    ["brackets and apostrophes", "(0151) 2345'6789"],
    ["line breaks", "0151\n2345\n6789"],
    ["no-break spaces", "0151\u00A02345\u00A06789"],
    ["a plus and seven digits", "+1 555 0100"],
    ["Devanagari digits", "\u0966\u0967\u096B\u0967 \u0968\u0969\u096A\u096B \u096C\u096D\u096E\u096F"],
    [
      "dingbat negative circled digits",
      "\u24FF\u2776\u277A\u2776 \u2777\u2778\u2779\u277A \u277B\u277C\u277D\u277E",
    ],
    [
      "dingbat circled sans-serif digits",
      "\u2780\u2784\u2780 \u2781\u2782\u2783\u2784 \u2785\u2786\u2787\u2788",
    ],
    [
      "keycap digits",
      "0\u20E31\u20E35\u20E31\u20E3 2\u20E33\u20E34\u20E35\u20E3 6\u20E37\u20E38\u20E39\u20E3",
    ],
    [
      "underlined digits",
      "0\u03321\u03325\u03321\u0332 2\u03323\u03324\u03325\u0332 6\u03327\u03328\u03329\u0332",
    ],
    ["digits glued to a letter on one side only", "x0151 2345 6789"],
    ["fraction slashes", "0151\u20442345\u20446789"],
    ["division slashes", "0151\u22152345\u22156789"],
    ["guillemets", "0151\u00AB2345\u00BB6789"],
    ["corner brackets", "0151\u300C2345\u300D6789"],
    ["curly quotes", "\u201C0151\u201D \u201C2345\u201D \u201C6789\u201D"],
    ["tildes", "0151~2345~6789"],
    ["plus signs between groups", "0151+2345+6789"],
    ["broken bars", "0151\u00A62345\u00A66789"],
    ["asterisks and hashes", "0151*2345#6789"],
    ["arrows", "0151\u21922345\u21926789"],
  ])("%s → phone", (_name, number) => {
    expect(scanMessage(`Call ${number} tonight`, none)).toEqual({ kind: "phone" });
  });

  it.each([
    ["seven digits", "555 0100"],
    ["a time and a short number", "10:30, room 12"],
    ["opening hours", "Mon\u2013Fri 09:00\u201312:30"],
    ["amounts with their currency", "1.234,50 \u20AC 2.000,00 \u20AC"],
  ])("%s is not a phone number", (_name, text) => {
    expect(scanMessage(`Ref ${text} ok`, none)).toBeUndefined();
  });

  it("a phone number written with underscores in a record is flagged through decide()", () => {
    expectEscalation(acknowledge("Call my husband on 0151_2345_6789."), "content_flagged");
  });

  it("a phone number written in keycap emoji in a record is flagged through decide()", () => {
    const keycaps =
      "+4\uFE0F\u20E39\uFE0F\u20E3 1\uFE0F\u20E35\uFE0F\u20E31\uFE0F\u20E3 2\uFE0F\u20E33\uFE0F\u20E34\uFE0F\u20E35\uFE0F\u20E3";
    expectEscalation(acknowledge(`Text the groomer on ${keycaps} when Rex is ready.`), "content_flagged");
  });

  it("a phone number written with pipes, which cleaning turns into broken bars, is flagged through decide()", () => {
    expectEscalation(acknowledge("Ring the kennel on 0151|2345|6789 tonight."), "content_flagged");
  });
});
