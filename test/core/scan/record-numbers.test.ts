import { describe, expect, it } from "vitest";
import { type ScanAllowance, scanMessage } from "../../../src/core/scan/scan.js";
import { acknowledge } from "../../fixtures/clinic.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

const none: ScanAllowance = { literal: "", formatted: [], whole: [] };

/** `value` as the only record text value of a message that reads "Shop: <value>". */
const asWholeValue = (value: string) =>
  scanMessage(`Shop: ${value}`, { literal: "Shop: ", formatted: [], whole: [value] });

describe("a record value that is only a number is a number", () => {
  it.each([
    ["spaces", "0151 2345 6789"],
    ["a no-break space", "0151\u00A02345\u00A06789"],
    ["brackets", "(0151)2345-6789"],
    ["dots", "0151.2345.6789"],
    ["slashes", "0151/2345/6789"],
    ["middle dots", "0151\u00B72345\u00B76789"],
    ["pipes", "0151|2345|6789"],
    ["a US layout", "(202) 555-0143"],
    ["dashes, in three groups", "0151-2345-6789"],
    ["dashes, in a US layout", "202-555-0143"],
    ["dashes, as a card number is written", "4111-1111-1111-1111"],
    ["underscores, in three groups", "0151_2345_6789"],
    [
      "digits of another script",
      "\u0660\u0661\u0665\u0661 \u0662\u0663\u0664\u0665 \u0666\u0667\u0668\u0669",
    ],
  ])("digit groups joined by %s are a phone number even as the whole value", (_name, value) => {
    expect(asWholeValue(value)).toEqual({ kind: "phone" });
  });

  it.each([
    ["one run of digits", "202604017"],
    ["groups joined by a dash", "4471-2290"],
    ["groups joined by another script's dash", "4471\u20102290"],
    ["groups joined by an underscore", "2026_0042"],
    ["a parcel code of letters and digits", "1ZLBAWYN0869556164"],
    ["an order code with a prefix", "ORD-4471-2290"],
  ])("a code is one or two digit groups joined by a dash or underscore: %s", (_name, value) => {
    expect(asWholeValue(value)).toBeUndefined();
  });

  it("a code with no spaces is still a number inside a sentence", () => {
    const value = "order 4471-2290";
    expect(scanMessage(`Shop: ${value}`, { ...none, whole: [value] })).toEqual({ kind: "phone" });
  });

  it("a shop name that is a phone number is flagged through decide()", () => {
    expectEscalation(acknowledge("0151 2345 6789"), "content_flagged");
    expectSend(acknowledge("4471-2290"));
  });
});

describe("digits glued to letters still count", () => {
  it.each([
    ["an extension after an x", "(202) 555-0143x5"],
    ["a trailing letter after an international number", "+12025550143a"],
    ["a leading letter", "a0151 2345 6789"],
    ["letters on both sides", "tel0151 2345 6789ext"],
    ["an extension glued to the last group", "202 555 0143ext.12"],
    ["a label glued before a plus number", "Tel+4915123456789"],
    ["a parcel code inside a sentence", "1ZLBAWYN0869556164"],
    ["letters of another script", "\u0442\u0435\u043B0151 2345 6789"],
  ])("%s → phone", (_name, text) => {
    expect(scanMessage(`Call ${text} tonight`, none)).toEqual({ kind: "phone" });
  });

  it("a number with an extension written out is flagged through decide()", () => {
    expectEscalation(acknowledge("Ring me on (202) 555-0143x5 after six."), "content_flagged");
  });

  it.each([
    ["a short code with letters", "E27 bulb, SKU A4-2290"],
    ["a hash of short digit runs", "commit 1661cfb90be05aab"],
    ["a measurement", "40W 230V 50Hz"],
  ])("fewer than eight digits in a row are no number: %s", (_name, text) => {
    expect(scanMessage(`Ref ${text} ok`, none)).toBeUndefined();
  });
});
