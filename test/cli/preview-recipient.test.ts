/**
 * The preview page's slot table says, on the recipient's row, when a template declares that the model
 * chooses the recipient, and says nothing of it otherwise.
 */
import { describe, expect, it } from "vitest";
import { templateReview } from "../../src/cli/preview-template.js";
import { customerCatalog } from "../../templates/customer.js";
import { sellerCatalog } from "../../templates/seller.js";

/** The table row of the recipient slot. */
function recipientRow(page: string): string {
  const row = page.split("\n").find((line) => line.includes("</code> (recipient)</th>"));
  if (row === undefined) throw new Error("no recipient row");
  return row;
}

describe("the preview page's recipient row", () => {
  it('shows recipient: "model-chooses" where a template declares it', () => {
    const template = customerCatalog.templates.find((entry) => entry.id === "ticket_closed");
    if (template === undefined) throw new Error("no ticket_closed");
    expect(recipientRow(templateReview(template))).toContain(
      "declared recipient: &quot;model-chooses&quot;: the model chooses which addresses record receives the message",
    );
  });

  it("says nothing of it for a recipient joined to the chosen order", () => {
    const template = sellerCatalog.templates.find((entry) => entry.id === "refund_request");
    if (template === undefined) throw new Error("no refund_request");
    const row = recipientRow(templateReview(template));
    expect(row).toContain("has id equal to sellerId of the order chosen");
    expect(row).not.toContain("model-chooses");
  });
});
