import { Buffer } from "node:buffer";
import { domainToASCII } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sanitizeValue } from "../../../src/core/message/sanitize.js";
import { hostDotCharacters } from "../../../src/core/scan/characters.js";
import { type ScanAllowance, scanMessage } from "../../../src/core/scan/scan.js";
import { propertyRuns } from "../../fixtures/property-runs.js";

// A fixed seed: every run of the suite checks the same cases (change it to explore others).
fc.configureGlobal({ seed: 20261130 });

// Hidden characters and how the cleaner must leave them: gone.
const hiddenCharacter = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cs}\p{Noncharacter_Code_Point}]/u;
const controlBut = (keep: string) => new RegExp(`[^\\P{Cc}${keep}]`, "u");

/** Every hidden code point of Unicode, listed once from the properties themselves. */
const hiddenPoints: number[] = [];
for (let point = 0; point <= 0x10ffff; point++) {
  if (point >= 0xd800 && point <= 0xdfff) continue;
  if (hiddenCharacter.test(String.fromCodePoint(point))) hiddenPoints.push(point);
}

const pieces = [
  "https://evil.example/reset",
  "evil.lol",
  "www.x",
  "eve@evil.lol",
  "eve [at] evil [dot] lol",
  "[.]",
  "[:]",
  "[[.]]",
  "{{x}}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a merge tag written into a record, on purpose.
  "${x}",
  "{%x%}",
  "<%= x %>",
  "*|FNAME|*",
  "javascript:alert(1)",
  "x.https://y",
  "0151 2345 6789",
  "e\u0301",
  "\u0301",
  "\uFFA0",
  "\u200D",
  "\uFE0F",
  "\u{E0100}",
  "\u{E0041}",
  "\u202E",
  "\r\n",
  "\u2028",
  "  ",
  "\t",
  ".",
  ":",
  "@",
  "//",
  "\uFF0E",
  "\u3002",
  "\uFF20",
  "\u2039",
];
const hostileText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc
    .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 })), { maxLength: 8 })
    .map((parts) => parts.join("")),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...pieces),
        fc.constantFrom(...hiddenPoints).map((p) => String.fromCodePoint(p)),
      ),
      {
        maxLength: 10,
      },
    )
    .map((parts) => parts.join("")),
);
const options = fc.record({ multiline: fc.boolean(), neutralize: fc.boolean() });

describe("cleaning", () => {
  it("is idempotent", () => {
    fc.assert(
      fc.property(hostileText, options, (raw, chosen) => {
        const once = sanitizeValue(raw, chosen);
        expect(sanitizeValue(once, chosen)).toBe(once);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it("leaves no hidden character (Default_Ignorable, Cf, surrogate, noncharacter) and no control but a kept newline", () => {
    fc.assert(
      fc.property(hostileText, options, (raw, chosen) => {
        const clean = sanitizeValue(raw, chosen);
        expect(clean).not.toMatch(hiddenCharacter);
        expect(clean).not.toMatch(controlBut(chosen.multiline ? "\\n" : ""));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it("removes every hidden code point of Unicode", () => {
    for (const point of hiddenPoints) {
      expect(sanitizeValue(`a${String.fromCodePoint(point)}b`)).toBe("ab");
    }
    expect(hiddenPoints.length).toBeGreaterThan(4000);
  });
});

// ---- identifiers injected into ordinary text ------------------------------------------------------

const letters = (min: number, max: number) =>
  fc.string({
    unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzабвгдеёжзийклмнопрстуфхцчшщэюяäöüé"),
    minLength: min,
    maxLength: max,
  });
const label = fc.oneof(
  letters(1, 8),
  fc.tuple(letters(1, 4), fc.nat(99)).map(([a, n]) => `${a}${n}`),
);
const dot = fc.constantFrom(".", "\uFF0E", "\u3002", "\uFF61", "\u2024", "\uFE52");
const topLabel = fc.oneof(
  letters(2, 10),
  letters(2, 6).map((l) => `xn--${l}1a`),
);
const host = fc
  .tuple(fc.array(fc.tuple(label, dot), { minLength: 1, maxLength: 3 }), topLabel)
  .map(([labels, top]) => labels.map(([l, d]) => l + d).join("") + top);
const hostUrl = fc
  .tuple(
    fc.constantFrom("", "//", "https://", "HTTP://", "x.https://", "www."),
    host,
    fc.constantFrom("", "/", "/reset?u=1", ":8080/x", "#top"),
  )
  .map((parts) => parts.join(""));
const at = fc.constantFrom("@", "\uFF20", "\uFE6B", "(at)", " [at] ", "[@]");
const address = fc
  .tuple(fc.oneof(letters(1, 8), fc.constant("ada.lovelace")), at, host)
  .map(([local, sign, domain]) => `${local}${sign}${domain}`);
const separator = fc.constantFrom(
  " ",
  "-",
  ".",
  ",",
  "_",
  "/",
  " - ",
  "\u2011",
  "\u2013",
  "\u2014",
  "\u00B7",
  "\u30FB",
  "\u00A0",
  "  __  ",
  "\u200B",
);
const digitOf = fc.constantFrom(..."0123456789").map((d) => d);
const group = fc.array(digitOf, { minLength: 2, maxLength: 4 }).map((ds) => ds.join(""));
const phone = fc
  .tuple(
    fc.constantFrom("", "+"),
    fc.array(fc.tuple(group, separator), { minLength: 3, maxLength: 5 }),
    group,
  )
  .map(([plus, groups, last]) => plus + groups.map(([g, s]) => g + s).join("") + last)
  .filter((number) => number.replace(/\D/g, "").length >= 8);
const words = fc.array(fc.oneof(letters(1, 8), fc.constantFrom("e.g.", "3.5", "12:30", "(", ")", ",")), {
  maxLength: 4,
});
// At least one word before: a value that is wholly one number is a record's code (an order number).
const someWords = words.chain((before) => letters(1, 8).map((word) => [word, ...before]));
const embedded = (identifier: fc.Arbitrary<string>) =>
  fc.tuple(someWords, identifier, words).map(([before, token, after]) => ({
    token,
    value: [...before, token, ...after].join(" "),
  }));

/** Scans `clean` as the only record value of a message whose template says "Note: …". */
const scanned = (clean: string) =>
  scanMessage(`Note: ${clean}`, { literal: "Note: ", formatted: [], whole: [clean] } satisfies ScanAllowance);

/** Whether a host or URL in `clean` is still live: its dots (any of them) undefanged. */
function liveHost(clean: string, token: string): boolean {
  const folded = token
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u3002]/g, ".");
  const hostPart = folded.replace(/^(?:x\.)?(?:https?:)?\/\/|^www\./, "").replace(/[/:#].*$/, "");
  return clean
    .toLowerCase()
    .replace(/\u3002/g, ".")
    .includes(hostPart);
}

describe("a value holding an address, a phone number or a host comes out defanged, or the scan flags it", () => {
  it("hosts and URLs", () => {
    fc.assert(
      fc.property(embedded(hostUrl), ({ token, value }) => {
        const clean = sanitizeValue(value);
        if (scanned(clean) === undefined) expect(liveHost(clean, token)).toBe(false);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it("e-mail addresses are never defanged: the scan flags them", () => {
    fc.assert(
      fc.property(embedded(address), ({ value }) => {
        expect(scanned(sanitizeValue(value))).toBeDefined();
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it("phone numbers: the scan flags them", () => {
    fc.assert(
      fc.property(embedded(phone), ({ value }) => {
        expect(scanned(sanitizeValue(value))).toEqual({ kind: "phone" });
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});

// ---- whole tokens ---------------------------------------------------------------------------------

const plainHost = fc
  .tuple(fc.array(letters(2, 6), { minLength: 1, maxLength: 2 }), letters(2, 5))
  .map(([labels, top]) => [...labels, top].join("."));
const plainAddress = fc.tuple(letters(2, 8), plainHost).map(([local, domain]) => `${local}@${domain}`);
const plainPhone = fc
  .array(fc.array(digitOf, { minLength: 3, maxLength: 4 }), { minLength: 3, maxLength: 4 })
  .map((groups) => `+${groups.map((g) => g.join("")).join(" ")}`);
const extra = fc.constantFrom(..."abcxyz");

/** A token that is a strict substring or superstring of `allowed`, of the same kind. */
function neighbours(allowed: string, kind: "email" | "phone" | "url"): fc.Arbitrary<string> {
  const more = kind === "phone" ? digitOf : extra;
  return fc.oneof(
    more.map((c) => (kind === "phone" ? allowed + c : `${c}${allowed}`)),
    more.map((c) => allowed + c),
    fc.constant(kind === "url" ? `${allowed}.evil.io` : kind === "email" ? `${allowed}.io` : `${allowed}1`),
    fc.constant(kind === "phone" ? allowed.slice(0, -1) : allowed.slice(1)),
  );
}

describe("whole-token comparison: a strict substring or superstring of an allowed value is flagged", () => {
  it.each([
    ["email", plainAddress],
    ["url", plainHost],
    ["phone", plainPhone],
  ] as const)("%s", (kind, tokens) => {
    fc.assert(
      fc.property(
        tokens.chain((allowed) => neighbours(allowed, kind).map((other) => ({ allowed, other }))),
        ({ allowed, other }) => {
          fc.pre(other !== allowed);
          const allowance: ScanAllowance = { literal: "Reach us: ", formatted: [allowed], whole: [] };
          expect(scanMessage(`Reach us: ${allowed} today`, allowance)).toBeUndefined();
          expect(scanMessage(`Reach us: ${other} today`, allowance)).toEqual({ kind });
        },
      ),
      { numRuns: propertyRuns(1000) },
    );
  });
});

// ---- numbers, hosts and ids that must not slip through ---------------------------------------------

const gluedLetters = fc.oneof(
  fc.constantFrom("x", "a", "ext", "tel", "Z", "\u00E9", "\u0436", "\u03B1", "\u05D0", "\u0639", "\u4E2D"),
  letters(1, 4),
);

describe("a phone number glued to letters is still a phone number", () => {
  it("with any letters before, after or on both sides", () => {
    fc.assert(
      fc.property(
        embedded(phone),
        fc.option(gluedLetters, { nil: "" }),
        fc.option(gluedLetters, { nil: "" }),
        ({ token, value }, before, after) => {
          const glued = value.replace(token, `${before}${token}${after}`);
          expect(scanned(sanitizeValue(glued))).toEqual({ kind: "phone" });
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
  });
});

const notCodeSeparator = fc.constantFrom(" ", ".", "/", "(", ") ", "\u00B7", "\u30FB", ",", " / ", "\u00A0");
const separatedNumber = fc
  .tuple(fc.array(fc.tuple(group, notCodeSeparator), { minLength: 1, maxLength: 4 }), group)
  .map(([groups, last]) => groups.map(([g, s]) => g + s).join("") + last)
  .filter((number) => number.replace(/\D/g, "").length >= 8);

describe("a record value that is only a number is a number", () => {
  it("digit groups joined by anything but a dash or underscore are flagged even as the whole value", () => {
    fc.assert(
      fc.property(separatedNumber, (number) => {
        const clean = sanitizeValue(number);
        expect(scanned(clean)).toEqual({ kind: "phone" });
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});

// Every non-ASCII symbol the URL parser takes in a host (and that is not drawn as a dot), from Unicode itself.
const symbolPoints: string[] = [];
const dotShaped = new RegExp(`[${hostDotCharacters}]`, "u");
for (let point = 0x80; point <= 0x1faff; point++) {
  if (point >= 0xd800 && point <= 0xdfff) continue;
  const char = String.fromCodePoint(point);
  // Values are cleaned (NFKC) before they are scanned: a symbol that folds to something else is that,
  // and the blank Braille pattern is a space to the cleaner.
  if (char.normalize("NFKC") !== char || !/\p{S}/u.test(char) || dotShaped.test(char)) continue;
  if (char === "\u2800") continue;
  if (domainToASCII(char) !== "") symbolPoints.push(char);
}
const symbolLabel = fc
  .array(fc.oneof(fc.constantFrom(...symbolPoints), letters(1, 3)), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(""))
  .filter((part) => /[^\p{L}\p{M}\p{N}]/u.test(part));

describe("a label of symbols or emoji is a host label, as the URL parser reads it", () => {
  it("hosts with such a label are flagged, and cleaning defangs them", () => {
    expect(symbolPoints.length).toBeGreaterThan(3000);
    fc.assert(
      fc.property(symbolLabel, fc.array(label, { maxLength: 2 }), letters(2, 10), (first, middle, top) => {
        const host = [first, ...middle, top].join(".");
        // Hosts the parser takes as a whole (its bidi rule refuses some mixes of scripts).
        fc.pre(domainToASCII(host) !== "");
        expect(scanMessage(`Visit ${host} today`, { literal: "", formatted: [], whole: [] })).toEqual({
          kind: "url",
        });
        const clean = sanitizeValue(`Visit ${host} today`);
        if (scanned(clean) === undefined) expect(clean).not.toContain(`.${top}`);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it("an address on such a host is flagged", () => {
    fc.assert(
      fc.property(letters(1, 8), symbolLabel, letters(2, 10), (local, first, top) => {
        expect(scanned(sanitizeValue(`write to ${local}@${first}.${top} now`))).toEqual({ kind: "email" });
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});

const word = fc.oneof(
  letters(1, 10),
  letters(1, 10).map((w) => w.charAt(0).toUpperCase() + w.slice(1)),
  letters(2, 5).map((w) => w.toUpperCase()),
  fc.nat(9999).map(String),
);
const joinedWords = fc
  .tuple(word, fc.array(fc.tuple(fc.constantFrom("/", "-", "+", "=", "_", "\u2013"), word), { maxLength: 8 }))
  .map(([first, rest]) => first + rest.map(([joiner, next]) => joiner + next).join(""));

describe("base64 secrets are ids; words joined by slashes, dashes or signs are not", () => {
  it("base64 and base64url of random bytes inside text are flagged", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 30, maxLength: 64 }), fc.boolean(), (bytes, url) => {
        const secret = Buffer.from(bytes).toString(url ? "base64url" : "base64");
        fc.pre(/[a-z]/.test(secret) && /[A-Z]/.test(secret) && /[A-Za-z][0-9]|[0-9][A-Za-z]/.test(secret));
        const finding = scanned(`my key is ${secret} keep it safe`);
        expect(finding?.kind === "id" || finding?.kind === "phone").toBe(true);
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it("words and numbers joined by slashes, dashes, plus, equals or underscores are not ids", () => {
    fc.assert(
      fc.property(joinedWords, (joined) => {
        // Eight digits joined by separators (seven after a "+") are a phone number: tested above.
        fc.pre(joined.replace(/\D/g, "").length < 7);
        expect(scanned(`we noted ${joined} for you`)).toBeUndefined();
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});
