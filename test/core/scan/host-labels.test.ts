import { domainToASCII } from "node:url";
import { describe, expect, it } from "vitest";
import { sanitizeValue } from "../../../src/core/message/sanitize.js";
import { type ScanAllowance, scanMessage } from "../../../src/core/scan/scan.js";
import { acknowledge } from "../../fixtures/clinic.js";
import { expectEscalation } from "../../fixtures/expect.js";

const none: ScanAllowance = { literal: "", formatted: [], whole: [] };

describe("a host label is what the URL parser takes in a host", () => {
  it.each([
    ["an emoji label", "\u{1F4A9}.la"],
    ["a snowman label with a path", "\u2603.net/login"],
    ["a heart among letters", "i\u2764you.ws"],
    ["a flag", "\u{1F1E9}\u{1F1EA}.example"],
    ["a keycap", "1\u20E3.la"],
    ["a symbol label deeper in the chain", "login.\u2605.evil.io"],
  ])("%s → url", (_name, host) => {
    // The parser itself takes it: it has a punycode form.
    expect(domainToASCII(host.replace(/\/.*$/, ""))).toMatch(/xn--/);
    expect(scanMessage(`Visit ${host} today`, none)).toEqual({ kind: "url" });
  });

  it.each([
    ["an emoji domain", "eve@\u{1F4A9}.la"],
    ["a symbol domain", "eve@\u2603.net"],
    ["an emoji local part and domain", "\u{1F600}@\u{1F4A9}.la"],
  ])("an address with %s → email", (_name, address) => {
    expect(scanMessage(`Write to ${address} now`, none)).toEqual({ kind: "email" });
  });

  it("cleaning defangs an emoji host as any other", () => {
    expect(sanitizeValue("see \u{1F4A9}.la or \u2603.net/login")).toBe(
      "see \u{1F4A9}[.]la or \u2603[.]net/login",
    );
  });

  it("a host followed by an emoji ends where its letters end", () => {
    expect(scanMessage("Visit evil.lol\u{1F642} today", none)).toEqual({ kind: "url" });
    expect(sanitizeValue("Visit evil.lol\u{1F642} today")).toBe("Visit evil[.]lol\u{1F642} today");
  });

  it.each([
    "Thanks.\u{1F60A}",
    "Great \u{1F44D}. See you",
    "price 12.50\u20AC",
    "\u2605\u2605\u2605.",
    "ok \u2192 done",
  ])("%s holds no host", (text) => {
    expect(scanMessage(`Note: ${text}`, none)).toBeUndefined();
    expect(sanitizeValue(text)).toBe(text);
  });

  it("an address on an emoji domain in a record is flagged through decide()", () => {
    expectEscalation(acknowledge("Write to eve@\u{1F4A9}.la for the results."), "content_flagged");
  });
});

describe("a digit drawn as a dot is a dot between labels", () => {
  it.each([
    ["the Arabic-Indic zero", "evil\u0660lol"],
    ["the Persian zero", "evil\u06F0lol"],
    ["a Persian zero in a longer chain", "login\u06F0evil\u06F0lol/reset"],
  ])("a host joined by %s → url", (_name, host) => {
    expect(scanMessage(`Visit ${host} today`, none)).toEqual({ kind: "url" });
  });

  it.each([
    ["the Arabic-Indic zero", "eve@evil\u0660lol"],
    ["the Persian zero", "eve@evil\u06F0lol"],
    ["a zero written out in brackets", "eve@evil(\u0660)lol"],
    ["a middle dot written out in brackets", "eve@evil \u00AB\u00B7\u00BB lol"],
  ])("an address joined by %s → email", (_name, address) => {
    expect(scanMessage(`Write to ${address} now`, none)).toEqual({ kind: "email" });
  });

  it("cleaning defangs it like any dot", () => {
    expect(sanitizeValue("see evil\u0660lol")).toBe("see evil[.]lol");
  });

  it.each([
    ["ten riyals, glued", "\u0661\u0660\u0631\u064A\u0627\u0644"],
    ["a year", "\u0662\u0660\u0662\u0666"],
    ["a thousand", "\u06F1\u06F0\u06F0\u06F0 \u062A\u0648\u0645\u0627\u0646"],
  ])("a zero after a digit of its script is a zero: %s", (_name, text) => {
    expect(scanMessage(`Note: ${text}`, none)).toBeUndefined();
    expect(sanitizeValue(text)).toBe(text);
  });

  it("an address joined by an Arabic-Indic zero in a record is flagged through decide()", () => {
    expectEscalation(acknowledge("Write to eve@evil\u0660lol for the results."), "content_flagged");
  });
});
