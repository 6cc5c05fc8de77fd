import { describe, expect, it } from "vitest";
import { DefinitionError, FormletterError, isFormletterError } from "../src/index.js";

describe("isFormletterError", () => {
  it("is true for errors formletter throws", () => {
    expect(isFormletterError(new FormletterError("template_invalid", "x"))).toBe(true);
    expect(isFormletterError(new DefinitionError("catalog_invalid", "x", { template: "t" }))).toBe(true);
  });

  it("is true for an error of another installed copy, recognised by the shared Symbol.for marker", () => {
    const fromOtherCopy = Object.assign(new Error('template "x": bad'), {
      code: "template_invalid",
      [Symbol.for("formletter.error")]: true,
    });
    expect(fromOtherCopy).not.toBeInstanceOf(FormletterError);
    expect(isFormletterError(fromOtherCopy)).toBe(true);
    expect(isFormletterError({ [Symbol.for("formletter.error")]: true })).toBe(true);
  });

  it.each([
    ["a plain Error", new Error("template_invalid")],
    ["an object with a code only", { code: "template_invalid", name: "FormletterError" }],
    ["a marker that is not true", { [Symbol.for("formletter.error")]: "yes" }],
    ["a local symbol of the same description", { [Symbol("formletter.error")]: true }],
    ["null", null],
    ["undefined", undefined],
    ["a string", "FormletterError"],
    ["a number", 42],
  ])("is false for %s", (_name, value) => {
    expect(isFormletterError(value)).toBe(false);
  });
});

describe("FormletterError", () => {
  it("carries a stable code, a name and the cause", () => {
    const cause = new Error("inner");
    const error = new FormletterError("records_invalid", "ticket records are invalid", { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe("records_invalid");
    expect(error.name).toBe("FormletterError");
    expect(error.cause).toBe(cause);
  });

  it("DefinitionError names the template and slot at fault", () => {
    const error = new DefinitionError("template_invalid", "m", { template: "t", slot: "s" });
    expect(error).toBeInstanceOf(FormletterError);
    expect(error.name).toBe("DefinitionError");
    expect([error.template, error.slot]).toEqual(["t", "s"]);
  });
});
