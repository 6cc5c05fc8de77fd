/**
 * `formletter check` says on the recipient's row, and in its JSON, when a template declares that the
 * model chooses the recipient; a template without the declaration reads as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InstalledCatalogs, installedCatalogs } from "../fixtures/installed-catalogs.js";
import { cli } from "./run.js";

// The catalogs as a team has them, importing the installed package: loading one compiles no source.
let installed: InstalledCatalogs;
const at = (path: string) => installed.at(path);
beforeAll(async () => {
  installed = await installedCatalogs(["templates/oncall.ts", "templates/seller.ts"]);
}, 120_000);
afterAll(() => installed?.remove());

describe('formletter check and recipient: "model-chooses"', () => {
  it("marks the declared recipient in the text and the JSON", async () => {
    const text = await cli(["check", at("templates/oncall.ts")]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /page_sms\s+to\s+ref\s+rotation \(where\) → recipient, the model's choice \(declared\)\s+phone \(phone\)/,
    );
    const json = JSON.parse((await cli(["check", at("templates/oncall.ts"), "--json"])).stdout);
    expect(json.templates.map((template: { recipient?: string }) => template.recipient)).toEqual([
      "model-chooses",
      "model-chooses",
      "model-chooses",
    ]);
  }, 60_000);

  it("leaves a joined recipient as it was", async () => {
    const text = await cli(["check", at("templates/seller.ts")]);
    expect(text.stdout).toMatch(/refund_request\s+to\s+ref\s+sellers \(id = order\.sellerId\) → recipient\s/);
    expect(text.stdout).not.toContain("model's choice");
    const json = JSON.parse((await cli(["check", at("templates/seller.ts"), "--json"])).stdout);
    expect(json.templates.some((template: object) => Object.hasOwn(template, "recipient"))).toBe(false);
  }, 60_000);
});
