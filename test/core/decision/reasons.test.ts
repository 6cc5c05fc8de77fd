import { describe, expect, it } from "vitest";
import { reasonDescriptions } from "../../../src/core/decision/reasons.js";
import { escalationReasons, isEscalationReason } from "../../../src/index.js";

describe("escalation reasons", () => {
  it("are one closed list: the twelve reasons of the design and a suppressed destination", () => {
    expect(new Set(escalationReasons)).toEqual(
      new Set([
        "model_escalated",
        "unparseable_output",
        "invalid_proposal",
        "unknown_template",
        "record_not_found",
        "slot_rejected",
        "recipient_unresolved",
        "content_flagged",
        "records_invalid",
        "limit_exceeded",
        "approval_required",
        "delivery_failed",
        "destination_suppressed",
      ]),
    );
    expect(escalationReasons).toHaveLength(13);
  });

  it("each has a one-line description", () => {
    expect(Object.keys(reasonDescriptions).sort()).toEqual([...escalationReasons].sort());
    for (const reason of escalationReasons) {
      expect(reasonDescriptions[reason].length).toBeGreaterThan(10);
      expect(reasonDescriptions[reason]).not.toMatch(/\n/);
    }
  });

  it.each<[unknown, boolean]>([
    ["slot_rejected", true],
    ["delivery_failed", true],
    ["SLOT_REJECTED", false],
    ["toString", false],
    ["__proto__", false],
    ["", false],
    [null, false],
    [42, false],
    [["slot_rejected"], false],
  ])("isEscalationReason(%j) is %s", (value, expected) => {
    expect(isEscalationReason(value)).toBe(expected);
  });
});
