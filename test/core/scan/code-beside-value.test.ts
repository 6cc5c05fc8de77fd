import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ScanAllowance, scanMessage } from "../../../src/core/scan/scan.js";
import { createCatalog, defineRecords, defineTemplate, format } from "../../../src/index.js";
import { expectEscalation, expectSend } from "../../fixtures/expect.js";

const none: ScanAllowance = { literal: "", formatted: [], whole: [] };
const allow = (fields: Partial<ScanAllowance>): ScanAllowance => ({ ...none, ...fields });

describe("a record code beside a value built by code reads as one number yet passes", () => {
  it.each([
    ["a reference, then a weight in brackets", "Shipment FWD-88003 (139 kg) arrived", ["FWD-88003"], ["139"]],
    ["an order number, then a count", "Order 4471-2290 (3 items) is packed", ["4471-2290"], ["3"]],
    ["a plain code, then an amount", "Invoice 20260412 / 1.234,50 € is due", ["20260412"], ["1.234,50 €"]],
    ["a date, then a code", "On 2026-05-31 44712290 was closed", ["44712290"], ["2026-05-31"]],
  ])("%s", (_name, text, whole, formatted) => {
    expect(scanMessage(text, allow({ whole, formatted }))).toBeUndefined();
    // An allowance may list a value twice (as written and folded onto one line): still one code.
    expect(scanMessage(text, allow({ whole: [...whole, ...whole], formatted }))).toBeUndefined();
  });
});

describe("a number is still flagged when a record could have spelled it", () => {
  it.each([
    ["two record codes side by side", "ref 4471-2290 5555 end", { whole: ["4471-2290", "5555"] }],
    ["one record code twice", "ref 4471 4471 (3) end", { whole: ["4471"], formatted: ["3"] }],
    [
      "a code whose digits are written as a phone number is",
      "ref 0151.2345 6789 end",
      { whole: ["0151.2345"], formatted: ["6789"] },
    ],
    [
      "a code cutting a group of digits",
      "ref FWD-88003 (139 kg)",
      { whole: ["FWD-8800"], formatted: ["139"] },
    ],
    [
      "a value built by code cutting a group",
      "ref FWD-88003 (1395 kg)",
      { whole: ["FWD-88003"], formatted: ["139"] },
    ],
    ["a record text with spaces", "ref 0151 2345 (139 kg)", { whole: ["0151 2345"], formatted: ["139"] }],
    ["a digit of the template", "ref FWD-88003 (139) 7", { whole: ["FWD-88003"], formatted: ["139"] }],
    [
      "a code beside a digit nothing accounts for",
      "ref FWD-88003 (1 39)",
      { whole: ["FWD-88003"], formatted: ["39"] },
    ],
    ["an international number", "ref +88003 (139 kg)", { whole: ["+88003"], formatted: ["139"] }],
  ])("%s", (_name, text, fields) => {
    expect(scanMessage(text, allow(fields))).toEqual({ kind: "phone" });
  });
});

describe("through decide()", () => {
  const records = defineRecords({
    consignees: z.object({ id: z.string(), email: z.string() }),
    shipments: z.object({ id: z.string(), ref: z.string(), consigneeId: z.string(), weightKg: z.number() }),
  });
  const { slot } = records;
  const delivered = defineTemplate(records, {
    id: "shipment_delivered",
    description: "Tell a consignee their shipment was delivered",
    audience: "customer",
    effect: "informational",
    channel: "email",
    to: slot.ref("consignees", { show: "email", as: format.email(), match: { id: "shipment.consigneeId" } }),
    subject: "Shipment delivered",
    body: "Shipment {{shipment.ref}} ({{shipment.weight}} kg) was delivered today.",
    slots: {
      shipment: slot.ref("shipments", {
        show: { ref: "ref", weight: { field: "weightKg", as: format.number() } },
      }),
    },
    limits: { perTicket: 1, perDay: 100 },
  });
  const catalog = createCatalog(records, [delivered]);
  const ticket = (ref: string) => ({
    ticketId: "T-1",
    consignees: [{ id: "C-1", email: "ops@consignee.example" }],
    shipments: [{ id: "S-1", ref, consigneeId: "C-1", weightKg: 139 }],
  });
  const decide = (ref: string) => {
    const shipment = catalog.handles(ticket(ref)).get("shipments", "S-1");
    return catalog.decide({ template: "shipment_delivered", slots: { shipment } }, ticket(ref));
  };

  it("a reference and its weight side by side send", () => {
    const decision = expectSend(decide("FWD-88003"));
    expect(decision.message.text).toContain("FWD-88003 (139 kg)");
  });

  it("a reference written as a phone number is still flagged", () => {
    expectEscalation(
      catalog.decide({ template: "shipment_delivered" }, ticket("0151 2345")),
      "content_flagged",
    );
  });
});
