/**
 * merged(base, extra) stands in for `{ ...base, ...extra }` on the paths every handle() takes: the same
 * own properties, values and key order, a fresh object, and neither argument changed.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { merged } from "../../src/core/merged.js";

describe("merged", () => {
  it("gives what the spread gives: extra's fields replace base's, in base's order, then extra's new ones", () => {
    const base = { a: 1, b: "two", c: [3] };
    const extra = { b: "replaced", d: undefined, e: { nested: true } };
    const result = merged(base, extra);
    expect(result).toEqual({ ...base, ...extra });
    expect(Object.keys(result)).toEqual(Object.keys({ ...base, ...extra }));
    expect(JSON.stringify(result)).toBe(JSON.stringify({ ...base, ...extra }));
    expect(Object.hasOwn(result, "d")).toBe(true);
  });

  it("returns a new object and leaves both arguments as they were", () => {
    const base = { a: 1 };
    const extra = { b: 2 };
    const result = merged(base, extra);
    expect(result).not.toBe(base);
    expect(result).not.toBe(extra);
    expect(base).toEqual({ a: 1 });
    expect(extra).toEqual({ b: 2 });
  });

  it("copies own enumerable properties only, as a spread does", () => {
    const base = Object.create(
      { inherited: "no" },
      { own: { value: "yes", enumerable: true }, hidden: { value: "no", enumerable: false } },
    ) as { own: string };
    const result = merged(base, { more: 1 });
    expect(Object.keys(result)).toEqual(["own", "more"]);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it("keeps a parsed `__proto__` key as data, as a spread does, never as the result's prototype", () => {
    const hostile = JSON.parse('{"__proto__": {"isAdmin": true}, "name": "x"}') as Record<string, unknown>;
    for (const result of [merged(hostile, { extra: 1 }), merged({ base: 1 }, hostile)]) {
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      expect((result as { isAdmin?: boolean }).isAdmin).toBeUndefined();
      expect(Object.hasOwn(result, "__proto__")).toBe(true);
      expect(JSON.stringify(result)).toContain('"__proto__":{"isAdmin":true}');
    }
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it("types the result as the spread does: replaced fields take extra's type, optional ones keep base's beside theirs", () => {
    const base = { id: 1, name: "a", note: "kept" } as { id: number; name: string; note: string };
    const extra = {} as { name: boolean; note?: number };
    expectTypeOf(merged(base, extra)).toEqualTypeOf<{ id: number; name: boolean; note: string | number }>();
  });
});
