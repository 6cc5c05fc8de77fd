import { afterAll, describe, expect, it } from "vitest";
import { outdatedTranslations } from "../../src/review/outdated-translations.js";
import { cli } from "../cli/run.js";
import { ReviewWorkspace } from "./review-workspace.js";

const space = new ReviewWorkspace();
afterAll(() => space.remove());

const germanBody = "Bestellung {{order.number}} kostet {{order.total}}, bezahlt {{order.amount}}.";
const newBody = "Order {{order.number}} comes to {{order.total}}, paid {{order.amount}}.";

describe("outdatedTranslations", () => {
  it("lists a locale left behind when the default body changed, naming the part", async () => {
    const base = await space.catalog({ german: { body: germanBody } });
    const head = await space.catalog({ german: { body: germanBody }, noteBody: newBody });
    expect(outdatedTranslations(base.catalog.templates, head.catalog.templates)).toEqual([
      { template: "order_note", locale: "de", parts: ["body"] },
    ]);
    const run = await cli(["diff", "--base", base.file, "--head", head.file]);
    expect(run.stdout).toContain(
      "may be outdated (the default text changed, this locale's did not):\n  order_note de: body",
    );
    const md = await cli(["diff", "--base", base.file, "--head", head.file, "--md"]);
    expect(md.stdout).toContain("- may be outdated: order\\_note de: body");
  });

  it("lists nothing when the locale's text changed with the default's, or only the locale's changed", async () => {
    const base = await space.catalog({ german: { body: germanBody } });
    const both = await space.catalog({ german: { body: `${germanBody} Danke.` }, noteBody: newBody });
    expect(outdatedTranslations(base.catalog.templates, both.catalog.templates)).toEqual([]);
    const localeOnly = await space.catalog({ german: { body: `${germanBody} Danke.` } });
    expect(outdatedTranslations(base.catalog.templates, localeOnly.catalog.templates)).toEqual([]);
  });

  it("holds a part to its own part: a new German subject does not cover an unchanged German body", async () => {
    const base = await space.catalog({ german: { body: germanBody } });
    const head = await space.catalog({
      german: { body: germanBody, subject: "Ihre Bestellung {{order.number}}" },
      noteBody: newBody,
    });
    expect(outdatedTranslations(base.catalog.templates, head.catalog.templates)).toEqual([
      { template: "order_note", locale: "de", parts: ["body"] },
    ]);
  });

  it("does not list a locale that is new in head", async () => {
    const base = await space.catalog();
    const head = await space.catalog({ german: { body: germanBody }, noteBody: newBody });
    expect(outdatedTranslations(base.catalog.templates, head.catalog.templates)).toEqual([]);
  });
});
