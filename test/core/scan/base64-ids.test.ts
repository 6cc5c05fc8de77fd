import { describe, expect, it } from "vitest";
import { type ScanAllowance, scanMessage } from "../../../src/core/scan/scan.js";
import { acknowledge } from "../../fixtures/clinic.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

/** Scans `value` as the only record text value of a message that shows it after "Note: ". */
const scanned = (value: string) =>
  scanMessage(`Note: ${value}`, { literal: "Note: ", formatted: [], whole: [value] } satisfies ScanAllowance);

describe("secrets in base64 are ids", () => {
  it.each([
    ["a secret-key shape with slashes", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
    ["a secret with a plus", "q8Zr+T2mLx9vKp4WnE7hYs3uBd6G"],
    ["base64 with padding", "dXNlcjpwYXNzd29yZDEyMzQ1Ng=="],
    ["base64url", "eyJhbGciOiJIUzI1NiJ9_dGVzdC1rZXk"],
    ["a key after a path", "0000/AKIAIOSFODNN7EXAMPLE"],
    ["a UUID after a slash", "orders/a3bbc89e-8bf9-38a8-99b2-ace4e6543d0f"],
    ["a UUID after an underscore", "ref_a3bbc89e-8bf9-38a8-99b2-ace4e6543d0f"],
  ])("%s inside text → id", (_name, token) => {
    expect(scanned(`the key is ${token} keep it`)).toEqual({ kind: "id" });
    // The value that is wholly the code is what the record holds: it may be shown.
    expect(scanned(token)).toBeUndefined();
  });

  it.each([
    ["and/or", "tea and/or coffee, either/or, 120 km/h"],
    ["slash-joined specifications", "bulbs 40W/60W/100W-E27/B22 fit"],
    ["opening hours", "Mon-Fri/9-17/Sat/10-14"],
    ["hyphenated words with numbers", "a COVID-19-booster-appointment-2026 slot"],
    ["a date range with month names", "02-Mar-2026\u201309-Mar-2026"],
    ["dates with month names", "02-Mar-2026/09-Mar-2026"],
    ["sums", "1+1=2, x+y=z2"],
    ["long hyphenated words", "state-of-the-art mother-in-law well-to-do"],
  ])("%s are ordinary words, not ids", (_name, text) => {
    expect(scanned(`booked ${text} thanks`)).toBeUndefined();
  });

  it("a base64 secret in a record is flagged through decide()", () => {
    expectEscalation(
      acknowledge("My key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY thanks"),
      "content_flagged",
    );
    expectSend(acknowledge("Either/or is fine, and/or after 10 March."));
  });
});
