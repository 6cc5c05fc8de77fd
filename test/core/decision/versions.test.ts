import { describe, expect, it } from "vitest";
import { createCatalog, defineTemplate } from "../../../src/index.js";
import {
  completionCheck,
  emergencyCallout,
  paymentRelease,
  propertyCatalog,
  propertyRecords,
  propertyTicket,
  proposal,
  visitRequest,
} from "../../fixtures/property.js";
import { contractor, order, to } from "../../fixtures/property-deploys.js";

const ticket = propertyTicket("T-1");

/** The property catalog with `completion_check` written with `body`: a deploy that changed its text. */
function catalogWith(body: string) {
  const changed = defineTemplate(propertyRecords, {
    id: "completion_check",
    description: "Ask the contractor whether the work on a unit is finished",
    audience: "contractor",
    effect: "informational",
    channel: "email",
    to,
    subject: "Is unit {{order.unit}} finished?",
    body,
    slots: { order, contractor },
    limits: { perTicket: 1, perDay: 100_000 },
  });
  return createCatalog(propertyRecords, [visitRequest, changed, emergencyCallout, paymentRelease]);
}

describe("decisions record the template and catalog versions", () => {
  it("a send carries its template's version and the catalog's", () => {
    const decision = propertyCatalog.decide(proposal("T-1"), ticket);
    expect(decision.outcome).toBe("send");
    expect(decision.templateVersion).toBe(completionCheck.version);
    expect(decision.catalogVersion).toBe(propertyCatalog.version);
    expect(decision.templateVersion).toMatch(/^[0-9a-f]{16}$/);
  });

  it("changing a template's text changes the version the next decision records", () => {
    const changed = catalogWith(
      "Hello {{contractor}},\n\nhas the work at unit {{order.unit}} been finished?",
    );
    const before = propertyCatalog.decide(proposal("T-1"), ticket);
    const after = changed.decide(proposal("T-1"), ticket);
    expect(after.outcome).toBe("send");
    expect(after.templateVersion).not.toBe(before.templateVersion);
    expect(after.catalogVersion).not.toBe(before.catalogVersion);
    // The other templates did not change: their decisions keep their version.
    const other = changed.decide(proposal("T-1", "emergency_callout"), ticket);
    expect(other.templateVersion).toBe(emergencyCallout.version);
  });

  it("an escalation that names a template carries its version; one that names none carries the catalog's only", () => {
    const approval = propertyCatalog.decide(proposal("T-1", "payment_release"), ticket);
    expect(approval).toMatchObject({ reason: "approval_required", templateVersion: paymentRelease.version });
    const rejected = propertyCatalog.decide(proposal("T-1", "visit_request", { access: "roof" }), ticket);
    expect(rejected).toMatchObject({ reason: "slot_rejected", templateVersion: visitRequest.version });

    for (const output of [
      { template: "no_such", slots: {} },
      { escalate: "no_template_fits" },
      "{not json",
    ]) {
      const decision = propertyCatalog.decide(output, ticket);
      expect(decision.outcome).toBe("escalate");
      expect(decision.templateVersion).toBeUndefined();
      expect(decision.catalogVersion).toBe(propertyCatalog.version);
    }
    const invalid = propertyCatalog.decide(proposal("T-1"), { ticketId: 7 });
    expect(invalid).toMatchObject({ reason: "records_invalid", catalogVersion: propertyCatalog.version });
  });

  it("keeps the versions out of an escalation's typed facts", async () => {
    const { escalationFacts } = await import("../../../src/core/decision/decision.js");
    const rejected = propertyCatalog.decide(proposal("T-1", "visit_request", { access: "roof" }), ticket);
    if (rejected.outcome !== "escalate") throw new Error("expected an escalation");
    expect(Object.keys(escalationFacts(rejected))).not.toContain("templateVersion");
    expect(Object.keys(escalationFacts(rejected))).not.toContain("catalogVersion");
  });
});
