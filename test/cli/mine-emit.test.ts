import { describe, expect, it } from "vitest";
import { literal } from "../../src/cli/mine-emit.js";
import { hostileStrings } from "../../src/testing/index.js";

describe("string literals of an emitted catalog", () => {
  const texts = [
    ...hostileStrings,
    '"',
    "\\",
    "\u2028\u2029",
    "*/ x /*",
    "$" + "{x}",
    "`",
    "\uD800",
    "a\u0000b",
  ];

  it.each(texts.map((text) => [text.slice(0, 40), text]))(
    "%j reads back as itself in printable ASCII",
    (_, text) => {
      const code = literal(text);
      expect(code).toMatch(/^"[\x20-\x7e]*"$/);
      expect(new Function(`return ${code};`)()).toBe(text);
    },
  );
});
