/**
 * The exact list of each entry point's exports, types included, read by the TypeScript checker: adding
 * or removing a public name fails here, so every change to the surface is deliberate.
 */
import { describe, expect, it } from "vitest";
import * as root from "../src/index.js";
import { exportKinds } from "./docs/entry-exports.js";

const rootValues = [
  "DefinitionError",
  "DeliveryError",
  "FormletterError",
  "QueueError",
  "StoreUnavailableError",
  "consoleTransport",
  "chosenRecord",
  "createCatalog",
  "createOutbox",
  "defineRecords",
  "defineTemplate",
  "escalate",
  "escalationReasons",
  "format",
  "isEscalationReason",
  "isFormletterError",
  "memoryStore",
  "memoryTransport",
  "openHumanQueue",
  "readableBy",
  "signWebhookBody",
  "untrusted",
  "verifyWebhookSignature",
  "webhookSignatureHeader",
  "webhookTransport",
];

const rootTypes = [
  "Catalog",
  "CatalogOptions",
  "CeilingConfig",
  "Decision",
  "DeliveryContext",
  "DeliveryEventOutcome",
  "DeliveryReceipt",
  "DetachedQueue",
  "EscalateDecision",
  "Escalation",
  "EscalationReason",
  "Expected",
  "Format",
  "FormletterErrorCode",
  "HandleInput",
  "HandleResult",
  "HumanQueue",
  "LiftResult",
  "LocaleChoice",
  "LocaleTexts",
  "Message",
  "Outbox",
  "OutboxOptions",
  "ParsedOutput",
  "PreviewOptions",
  "QueueItemDetail",
  "RecordOf",
  "RecordsDefinition",
  "SendDecision",
  "Store",
  "Template",
  "TemplateConfig",
  "TemplateLocaleConfig",
  "TicketPreview",
  "TicketRecords",
  "Transport",
];

const storeExports = [
  "AuditEvent",
  "AuditFilter",
  "AuditType",
  "OutboundRow",
  "OutboundStatus",
  "QueueFilter",
  "QueueItem",
  "QueuePage",
  "QueueStatus",
  "SendCounts",
  "Spend",
  "Store",
  "StoreTransaction",
  "StoredResult",
  "Suppression",
  "SuppressionCause",
  "SuppressionPage",
  "endLease",
  "leaseTransaction",
  "queueStatuses",
];

const sorted = (names: Iterable<string>) => [...names].sort();

/** Every name `entry` exports, types and values, as the checker sees it. */
const exportsOf = (entry: string) => sorted(exportKinds(new URL(entry, import.meta.url)).keys());

describe("the public surface", () => {
  it("the root exports exactly these values", () => {
    expect(sorted(Object.keys(root))).toEqual(sorted(rootValues));
  });

  it("the root exports exactly these names, types included (about 40, on purpose)", () => {
    expect(exportsOf("../src/index.ts")).toEqual(sorted([...rootValues, ...rootTypes]));
  });

  it("formletter/store exports the contract and its rows; the suite, which needs vitest, is a subpath of its own", () => {
    expect(exportsOf("../src/store/index.ts")).toEqual(sorted(storeExports));
    expect(exportsOf("../src/store/conformance/index.ts")).toEqual(
      expect.arrayContaining(["StoreUnderTest", "describeStoreConformance"]),
    );
  });

  it("no compiled internals or CLI helpers are at the root", () => {
    const names = exportsOf("../src/index.ts");
    for (const internal of [
      "CompiledSlot",
      "CompiledField",
      "PreparedCollection",
      "formatBand",
      "observedDays",
      "countingRules",
    ]) {
      expect(names).not.toContain(internal);
    }
  });
});
