import { describe, expect, it } from "vitest";
import { sanitizeValue } from "../../../src/core/message/sanitize.js";
import { invisibleOrControl } from "../../fixtures/expect.js";

describe("sanitizeValue strips what can hide or reorder text", () => {
  it.each([
    ["right-to-left override", "abc\u202Edef", "abcdef"],
    ["left-to-right embedding and pop", "a\u202Ab\u202Cc", "abc"],
    ["bidi isolates", "\u2066a\u2067b\u2068c\u2069", "abc"],
    ["LRM, RLM and ALM", "a\u200Eb\u200Fc\u061C", "abc"],
    ["zero-width space, non-joiner, joiner", "a\u200Bb\u200Cc\u200Dd", "abcd"],
    ["word joiner and invisible operators", "a\u2060b\u2062c\u2064", "abc"],
    ["byte order mark", "\uFEFFabc", "abc"],
    ["soft hyphen", "ab\u00ADc", "abc"],
    ["NUL, BEL, backspace, escape, DEL", "a\u0000b\u0007c\u0008d\u001Be\u007F", "abcde"],
    ["C1 controls", "a\u0080b\u009Bc\u009F", "abc"],
    ["Unicode tag characters", "ok\u{E0001}\u{E0068}\u{E0069}", "ok"],
    ["variation selectors", "a\uFE0Fb", "ab"],
    ["Hangul fillers", "a\u3164b\uFFA0c", "abc"],
  ])("%s", (_name, raw, expected) => {
    const clean = sanitizeValue(raw);
    expect(clean).toBe(expected);
    expect(clean).not.toMatch(invisibleOrControl);
  });

  it.each([
    ["variation selectors supplement", "a\u{E0100}b\u{E01EF}c", "abc"],
    ["Mongolian free variation selectors and vowel separator", "a\u180Bb\u180Ec", "abc"],
    ["combining grapheme joiner", "a\u034Fb", "ab"],
    ["Arabic number sign and end of ayah (format characters)", "a\u0600b\u06DDc", "abc"],
    ["interlinear annotation marks", "a\uFFF9b\uFFFBc", "abc"],
    ["shorthand format controls", "a\u{1BCA0}b", "ab"],
    ["musical invisible formatting", "a\u{1D173}b", "ab"],
    ["Egyptian hieroglyph format controls", "a\u{13430}b", "ab"],
    ["code points reserved as ignorable", "a\u2065b\uFFF0c\u{E0FFF}d", "abcd"],
    ["a lone surrogate", "a\uD800b", "ab"],
    ["noncharacters", "a\uFDD0b\uFFFFc", "abc"],
    [
      "a Hangul filler NFKC makes from a halfwidth one, between a letter and its accent",
      "e\uFFA0\u0301",
      "\u00E9",
    ],
  ])("by property, not by list: %s", (_name, raw, expected) => {
    expect(sanitizeValue(raw)).toBe(expected);
  });

  it("splits emoji joined by a zero-width joiner into their parts, and drops emoji variation selectors", () => {
    expect(sanitizeValue("\u{1F469}\u200D\u2695\uFE0F")).toBe("\u{1F469}\u2695");
  });

  it("composes to NFC so look-alike sequences compare equal", () => {
    expect(sanitizeValue("Jose\u0301")).toBe("Jos\u00E9");
  });

  it("folds fullwidth and mathematical characters (NFKC), so a number or host written in them is plain", () => {
    expect(sanitizeValue("\uFF0B\uFF14\uFF19 \uFF13\uFF10 \uFF11\uFF12\uFF13\uFF14")).toBe("+49 30 1234");
    expect(sanitizeValue("\u{1D7D2}\u{1D7CF}\u{1D7D3}")).toBe("415");
    expect(sanitizeValue("\uFF45\uFF56\uFF49\uFF4C\uFF0E\uFF43\uFF4F\uFF4D")).toBe("evil[.]com");
  });
});

describe("line breaks and spaces", () => {
  it.each([
    ["CRLF", "a\r\nb", "a b"],
    ["CR", "a\rb", "a b"],
    ["LF", "a\nb", "a b"],
    ["NEL", "a\u0085b", /^a ?b$/],
    ["line separator", "a\u2028b", "a b"],
    ["paragraph separator", "a\u2029b", "a b"],
    ["vertical tab and form feed", "a\u000Bb\u000Cc", /^a ?b ?c$/],
    ["tabs and space runs", "a\t\t b     c", "a b c"],
    ["no-break and ideographic spaces", "a\u00A0\u00A0b\u3000c", "a b c"],
    ["leading and trailing blanks", "  \n a b \t ", "a b"],
    ["a header injection", "Room 4\r\nBcc: x\r\nSubject: y", "Room 4 Bcc: x Subject: y"],
  ])("single-line: %s", (_name, raw, expected: string | RegExp) => {
    const clean = sanitizeValue(raw, { neutralize: false });
    if (typeof expected === "string") expect(clean).toBe(expected);
    else expect(clean).toMatch(expected);
    expect(clean).not.toMatch(/[\r\n\u2028\u2029]/);
  });

  it.each([
    ["CRLF becomes LF", "a\r\nb", "a\nb"],
    ["line and paragraph separators become LF", "a\u2028b\u2029c", "a\nb\nc"],
    ["three or more blank lines collapse to one blank line", "a\n\n\n\n\nb", "a\n\nb"],
    ["each line is trimmed and its spaces collapsed", "  a   b  \n\t c ", "a b\nc"],
  ])("multi-line: %s", (_name, raw, expected) => {
    expect(sanitizeValue(raw, { multiline: true, neutralize: false })).toBe(expected);
  });
});

describe("template syntax a downstream merge-tag engine would evaluate is neutralised", () => {
  const live = /\{|\}|<|>|\*\||\|\*|\|/;
  it.each([
    ["Mustache / Handlebars", "{{user.password}}"],
    ["triple Mustache", "{{{html}}}"],
    ["Liquid / Jinja tags", "{% include 'x' %}"],
    ["Jinja comments", "{# note #}"],
    ["JavaScript / Freemarker interpolation", "$" + "{process.env.KEY}"],
    ["Ruby / Pug interpolation", "#{system('id')}"],
    ["ERB / EJS", "<%= secret %>"],
    ["Salesforce merge fields", "{!Contact.Email}"],
    ["Smarty", "{$smarty.server}"],
    ["Mailchimp merge tags", "*|EMAIL|*"],
    ["a tag split across a line break", "{\n{x}\n}"],
  ])("%s", (_name, raw) => {
    const clean = sanitizeValue(raw, { multiline: true });
    expect(clean).not.toMatch(live);
    expect(sanitizeValue(clean, { multiline: true })).toBe(clean);
  });

  it("keeps the text readable: braces become look-alike brackets", () => {
    expect(sanitizeValue("Dr {{patient}} Hopper")).toBe("Dr \u2774\u2774patient\u2775\u2775 Hopper");
    expect(sanitizeValue("A | B")).toBe("A \u00A6 B");
  });
});

describe("host names by shape, with no list of top-level domains", () => {
  it.each([
    ["an unlisted top-level domain", "see evil.lol", "see evil[.]lol"],
    ["a new generic one", "see evil.photography/x", "see evil[.]photography/x"],
    ["IDN", "see пример.рф", "see пример[.]рф"],
    ["punycode", "see xn--e1afmkfd.xn--p1ai", "see xn--e1afmkfd[.]xn--p1ai"],
    ["a mixed-script host", "see evil.\u0441om", "see evil[.]\u0441om"],
    ["an ideographic full stop", "see evil\u3002lol", "see evil[.]lol"],
    [
      "a look-alike dot (middle dot, Lisu letter)",
      "see evil\u00B7lol or evil\uA4F8lol",
      "see evil[.]lol or evil[.]lol",
    ],
    [
      "a bullet, a raised dot, a runic dot",
      "see evil\u2022lol, evil\u2E33lol or evil\u16EBlol",
      "see evil[.]lol, evil[.]lol or evil[.]lol",
    ],
    [
      "a letter drawn as a dot (Canadian syllabics, Latin sinological, Hangul araea)",
      "see evil\u1427lol, evil\uA78Flol or evil\u318Dlol",
      "see evil[.]lol, evil[.]lol or evil[.]lol",
    ],
    ["a protocol-relative URL", "see //evil.lol/x", "see //evil[.]lol/x"],
    ["a host with a trailing number label", "see evil.lol.1", "see evil[.]lol.1"],
    ["an IPv4 address", "see 10.0.0.1/admin", "see 10[.]0[.]0[.]1/admin"],
    ["a www host with a one-letter label", "see www.x", "see www[.]x"],
    ["a file name, a host by shape", "invoice.pdf attached", "invoice[.]pdf attached"],
    ["a scheme hidden behind a dot", "x.https://evil", "x[.]hxxps[:]//evil"],
    ["a custom scheme with //", "zoommtg://evil/join", "zoommtg[:]//evil/join"],
  ])("%s is defanged", (_name, raw, expected) => {
    expect(sanitizeValue(raw)).toBe(expected);
  });

  it.each(["e.g. this", "i.e. that", "approx.3 kg", "12.50 EUR", "v2.1 and 1.2.3", "Ph.D., a.m.", "U.S.A."])(
    "%s is ordinary text and stays as it is",
    (text) => {
      expect(sanitizeValue(text)).toBe(text);
    },
  );

  it("leaves both parts of an e-mail address intact, so the scan sees it whole", () => {
    expect(sanitizeValue("mail ada.lovelace@example.org now")).toBe("mail ada.lovelace@example.org now");
  });
});

describe("links and markup are neutralised", () => {
  // A scheme directly followed by ":", a "www." host, markup brackets, a markdown link or image, a backtick.
  const live = /(?:https?|ftp|javascript|data|vbscript|file|mailto):|www\.|<|>|\]\(|!\[|`/i;

  it.each([
    "https://evil.com/reset?x=1",
    "HTTP://EVIL.COM",
    "ftp://files.evil.net/a",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "vbscript:msgbox",
    "data:text/html;base64,PHNjcmlwdD4=",
    "file:///etc/passwd",
    "see www.evil.com today",
    "book at evil.com now",
    "sub.domain.evil.io/path",
    "![img](https://evil.com/x.png)",
    "[text](https://evil.com)",
    "<img src=x onerror=alert(1)>",
    '<a href="https://evil.com">x</a>',
    "<script>alert(1)</script>",
    "`rm -rf`",
  ])("%s", (raw) => {
    const clean = sanitizeValue(raw);
    expect(clean).not.toMatch(live);
    expect(clean).not.toMatch(/\b(?:evil\.(?:com|net|io))\b/i);
  });

  it("keeps the words readable", () => {
    const clean = sanitizeValue("Visit https://evil.com/reset now");
    expect(clean.startsWith("Visit ")).toBe(true);
    expect(clean.endsWith(" now")).toBe(true);
    expect(clean).toContain("evil");
    expect(clean).toContain("reset");
  });

  it("leaves the host of an e-mail address intact so the scanner still sees the address", () => {
    expect(sanitizeValue("write to eve@evil.com")).toContain("eve@evil.com");
  });

  it("leaves ordinary text alone", () => {
    for (const text of [
      "Dr Grace Hopper",
      "Room B12",
      "Mon 2 Mar, 10:30",
      "O'Brien & Sons",
      "3.5 mg twice a day",
      "Zoë Ünal",
    ]) {
      expect(sanitizeValue(text)).toBe(text.normalize("NFC"));
    }
  });

  it("with neutralize: false, keeps URLs (for prompt text, never for messages)", () => {
    expect(sanitizeValue("https://evil.com\u202E", { neutralize: false })).toBe("https://evil.com");
  });

  it("is idempotent", () => {
    for (const raw of ["https://evil.com <b>x</b>", "a\r\n\u202Eb", "[x](y)  z", "a.b.com:8080/x"]) {
      const once = sanitizeValue(raw);
      expect(sanitizeValue(once)).toBe(once);
    }
  });
});
