import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRecords, defineTemplate } from "../../src/index.js";
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

describe("outdatedTranslations on choice labels", () => {
  const records = defineRecords({
    orders: z.object({ id: z.string(), number: z.string() }),
    sellers: z.object({ id: z.string(), email: z.email(), locale: z.string() }),
  });
  /** A damage note whose reason labels and German text vary. */
  const damage = (
    labels: { wet: string },
    german: { wet: string; body?: string },
    missing?: "default",
    body = "Order {{order}} arrived damaged: {{reason}}.",
  ) =>
    defineTemplate(records, {
      id: "damage",
      description: "An order arrived damaged",
      audience: "seller",
      effect: "informational",
      channel: "email",
      to: records.slot.ref("sellers", { show: "email" }),
      subject: "Order {{order}}",
      body,
      slots: {
        order: records.slot.ref("orders", { show: "number" }),
        reason: records.slot.choice({ crushed: "the parcel was crushed", ...labels }),
      },
      limits: { perTicket: 1, perDay: 10 },
      locale: {
        default: "en",
        from: "to.locale",
        ...(missing === undefined ? {} : { missing }),
        texts: {
          de: {
            ...(german.body === undefined ? {} : { subject: "Bestellung {{order}}", body: german.body }),
            choices: { reason: { crushed: "eingedrückt", wet: german.wet } },
          },
        },
      },
    });

  it("lists a locale whose labels stayed while the default's changed, as choices.<slot>", () => {
    const body = "Bestellung {{order}}: {{reason}}.";
    const base = damage({ wet: "the parcel was wet" }, { wet: "nass", body });
    const head = damage({ wet: "the parcel arrived soaked" }, { wet: "nass", body });
    expect(outdatedTranslations([base], [head])).toEqual([
      { template: "damage", locale: "de", parts: ["choices.reason"] },
    ]);
    const both = damage({ wet: "the parcel arrived soaked" }, { wet: "durchnässt", body });
    expect(outdatedTranslations([base], [both])).toEqual([]);
  });

  it("does not list a part a locale takes from the default, which changes with it", () => {
    const base = damage({ wet: "the parcel was wet" }, { wet: "nass" }, "default");
    const head = damage(
      { wet: "the parcel was wet" },
      { wet: "nass" },
      "default",
      "Order {{order}} came damaged: {{reason}}.",
    );
    expect(outdatedTranslations([base], [head])).toEqual([]);
  });
});
