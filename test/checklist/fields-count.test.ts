/**
 * The fields item's numbers add up to the lines it lists: a reviewer counting "8 field reads" finds 8,
 * and the reads that choose the recipient, listed under the recipient item, are counted as such.
 */
import { buildChecklist, type Checklist, type ChecklistItem } from "formletter/testing";
import { describe, expect, it } from "vitest";
import type { Catalog } from "../../src/index.js";
import { customerCatalog } from "../../templates/customer.js";
import { oncallCatalog } from "../../templates/oncall.js";
import { sellerCatalog } from "../../templates/seller.js";

const catalogs = [
  ["seller", sellerCatalog],
  ["customer", customerCatalog],
  ["on-call", oncallCatalog],
] as unknown as readonly (readonly [string, Catalog])[];

function itemOf(checklist: Checklist, check: ChecklistItem["check"], template: string): ChecklistItem {
  const found = checklist.items.find((entry) => entry.check === check && entry.template === template);
  if (found === undefined) throw new Error(`no ${check} item for ${template}`);
  return found;
}

/** The number before `noun` in a summary, 0 when the summary does not count it. */
function countOf(summary: string, noun: string): number {
  const match = new RegExp(`(\\d+) ${noun}s?\\b`).exec(summary);
  return match === null ? 0 : Number(match[1]);
}

describe("the checklist's fields item", () => {
  it.each(catalogs)(
    "%s: counts exactly the lines it lists, and the recipient's reads apart",
    (_, catalog) => {
      const checklist = buildChecklist(catalog);
      let withRecipientReads = 0;
      for (const template of catalog.templates) {
        const fields = itemOf(checklist, "fields", template.id);
        expect(fields.status, template.id).toBe("pass");
        const listed =
          countOf(fields.summary, "field read") +
          countOf(fields.summary, "computed slot") +
          countOf(fields.summary, "choice slot");
        expect(listed, `${template.id}: ${fields.summary}`).toBe(fields.evidence.length);
        expect(
          fields.evidence.filter((line) => / (shows|formats with|joins on|reads) /.test(line)).length,
        ).toBe(countOf(fields.summary, "field read"));
        const recipient = itemOf(checklist, "recipient", template.id);
        const apart = /recipient's (\d+) reads? are listed under recipient/.exec(fields.summary);
        expect(Number(apart?.[1] ?? 0), `${template.id}: ${fields.summary}`).toBe(recipient.evidence.length);
        if (apart !== null) withRecipientReads += 1;
      }
      // The recipient's reads are counted apart somewhere, or the check above compared nothing.
      expect(withRecipientReads).toBeGreaterThan(0);
    },
  );

  it("says what it counts", () => {
    const checklist = buildChecklist(sellerCatalog as unknown as Catalog);
    const fields = itemOf(checklist, "fields", "refund_request");
    expect(fields.summary).toBe(
      "8 field reads, each one the seller may see; 1 computed slot; 1 choice slot (the recipient's 3 reads are listed under recipient)",
    );
    expect(fields.evidence).toHaveLength(10);
  });
});
