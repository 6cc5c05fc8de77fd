import { describe, expect, it } from "vitest";
import { recordedVersions } from "../../src/core/definition/template-content.js";
import { storeKinds, useStore } from "./harness.js";
import { versionScenarios } from "./version-scenarios.js";

describe.each(storeKinds)("versions in the outbox on the %s store", (kind) => {
  versionScenarios(useStore(kind));
});

describe("versions read back from audit data", () => {
  it.each([
    ["a forged markup value", { templateVersion: "<b>x</b>", catalogVersion: "0123456789abcdef" }],
    ["a number", { templateVersion: 12, catalogVersion: "0123456789abcdef" }],
    ["an object", { templateVersion: { toString: "x" }, catalogVersion: "0123456789abcdef" }],
    ["too long", { templateVersion: "0123456789abcdef0", catalogVersion: "0123456789abcdef" }],
    ["upper-case hex", { templateVersion: "0123456789ABCDEF", catalogVersion: "0123456789abcdef" }],
    [
      "an inherited value",
      Object.assign(Object.create({ templateVersion: "fedcba9876543210" }), {
        catalogVersion: "0123456789abcdef",
      }),
    ],
    [
      "a JSON __proto__ key",
      JSON.parse(
        '{"__proto__": {"templateVersion": "fedcba9876543210"}, "catalogVersion": "0123456789abcdef"}',
      ),
    ],
  ])("leaves out %s", (_, data) => {
    expect(recordedVersions(data)).toEqual({ catalogVersion: "0123456789abcdef" });
  });
});
