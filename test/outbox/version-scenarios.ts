/**
 * The outbox's version records, on any store: decisions and their audit events, an escalation the outbox
 * writes, and a draft approved after a deploy that changed its template.
 */
import { expect, it } from "vitest";
import { recordedVersions } from "../../src/core/definition/template-content.js";
import { merged } from "../../src/core/merged.js";
import { createCatalog, defineTemplate } from "../../src/index.js";
import { reportFromAudit } from "../../src/metrics/index.js";
import { deliveryEvent } from "../../src/providers/events/delivery-event.js";
import type { Store } from "../../src/store/store.js";
import { memoryTransport } from "../../src/transport/index.js";
import {
  completionCheck,
  emergencyCallout,
  paymentRelease,
  propertyCatalog,
  propertyRecords,
  proposal,
  visitRequest,
} from "../fixtures/property.js";
import { contractor, order, to } from "../fixtures/property-deploys.js";
import { auditOf, outboxOver } from "./harness.js";

/** The property catalog after a deploy that changed the text of `payment_release`. */
const redeployed = createCatalog(propertyRecords, [
  visitRequest,
  completionCheck,
  emergencyCallout,
  defineTemplate(propertyRecords, {
    id: "payment_release",
    description: "Tell the contractor their payment for a work order was released",
    audience: "contractor",
    effect: "irreversible",
    channel: "email",
    to,
    subject: "Payment released: unit {{order.unit}}",
    body: "Hello {{contractor}},\n\nwe have released the payment for unit {{order.unit}}.",
    slots: { order, contractor },
    limits: { perTicket: 1, perDay: 100 },
    approval: "human",
  }),
]);

/** Registers the version tests of the surrounding describe block over `ctx.store`. */
export function versionScenarios(ctx: { readonly store: Store }): void {
  it("every decision's audit event records the template and catalog versions", async () => {
    const { outbox } = outboxOver(ctx.store);
    const sent = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r1" });
    expect(sent.decision).toMatchObject({
      templateVersion: completionCheck.version,
      catalogVersion: propertyCatalog.version,
    });
    // A duplicate answers with the first decision as stored: its versions survive the store.
    const again = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r1b" });
    expect(again).toMatchObject({ duplicate: true, decision: { templateVersion: completionCheck.version } });
    await outbox.handle({ ticketId: "T-2", output: { escalate: "no_template_fits" }, runId: "r2" });
    const decisions = (await auditOf(outbox)).filter((event) => event.type === "decision");
    expect(
      decisions.map((event) => [event.ticketId, event.data.templateVersion, event.data.catalogVersion]),
    ).toEqual([
      ["T-1", completionCheck.version, propertyCatalog.version],
      ["T-2", undefined, propertyCatalog.version],
    ]);
  });

  it("an escalation the outbox writes (a limit reached) keeps the versions it was decided under", async () => {
    const { outbox } = outboxOver(ctx.store);
    for (const id of ["T-1", "T-2"])
      await outbox.handle({ ticketId: id, output: proposal(id, "emergency_callout"), runId: id });
    const limited = await outbox.handle({
      ticketId: "T-3",
      output: proposal("T-3", "emergency_callout"),
      runId: "T-3",
    });
    expect(limited.decision).toMatchObject({
      reason: "limit_exceeded",
      templateVersion: emergencyCallout.version,
      catalogVersion: propertyCatalog.version,
    });
    const event = (await auditOf(outbox, { ticketId: "T-3" }))[0];
    expect(event?.data).toMatchObject({ templateVersion: emergencyCallout.version });
    const item = await outbox.queue.get(limited.queueItemId as string);
    expect(item?.decidedUnder).toEqual({
      templateVersion: emergencyCallout.version,
      catalogVersion: propertyCatalog.version,
    });
  });

  it("a draft approved after a deploy that changed its template is the old version's, and the approval says both", async () => {
    const before = outboxOver(ctx.store);
    const waiting = await before.outbox.handle({
      ticketId: "T-1",
      output: proposal("T-1", "payment_release"),
      runId: "r1",
    });
    const id = waiting.queueItemId as string;
    expect(paymentRelease.version).not.toBe(redeployed.template("payment_release")?.version);

    const after = outboxOver(ctx.store, { catalog: redeployed as typeof propertyCatalog });
    const item = await after.outbox.queue.get(id);
    expect(item?.decidedUnder).toEqual({
      templateVersion: paymentRelease.version,
      catalogVersion: propertyCatalog.version,
    });
    await after.outbox.queue.approve(id, { by: "ana@example.com" });
    // The draft as it was decided, not the new text.
    expect(after.transport.sent[0]?.message.text).toContain("has been released");
    const approval = (await auditOf(after.outbox, { type: "queue" })).find(
      (event) => event.data.action === "approve",
    );
    expect(approval?.data).toMatchObject({
      decidedUnder: { templateVersion: paymentRelease.version, catalogVersion: propertyCatalog.version },
      deployed: {
        templateVersion: redeployed.template("payment_release")?.version,
        catalogVersion: redeployed.version,
      },
      templateChanged: true,
    });
  });

  it("a draft approved after a deploy that changed its template goes out on a row holding the versions it was decided under", async () => {
    const before = outboxOver(ctx.store);
    const waiting = await before.outbox.handle({
      ticketId: "T-1",
      output: proposal("T-1", "payment_release"),
      runId: "r1",
    });
    const after = outboxOver(ctx.store, { catalog: redeployed as typeof propertyCatalog });
    const approved = await after.outbox.queue.approve(waiting.queueItemId as string, {
      by: "ana@example.com",
    });
    const decidedUnder = { templateVersion: paymentRelease.version, catalogVersion: propertyCatalog.version };
    expect(approved.outbound).toMatchObject(decidedUnder);
    const row = await ctx.store.getOutbound(approved.outbound?.id as string);
    expect(row).toMatchObject(merged({ status: "delivered" }, decidedUnder));
    expect(row?.templateVersion).not.toBe(redeployed.template("payment_release")?.version);
    expect(row?.catalogVersion).not.toBe(redeployed.version);
  });

  it("a delivered message's row holds the versions its decision's audit event records", async () => {
    const { outbox } = outboxOver(ctx.store);
    const sent = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r1" });
    const row = await ctx.store.getOutbound(sent.outboundId as string);
    expect(row?.status).toBe("delivered");
    const decision = (await auditOf(outbox, { type: "decision" }))[0];
    expect(decision?.data.templateVersion).toBe(completionCheck.version);
    expect(row).toMatchObject({
      templateVersion: decision?.data.templateVersion,
      catalogVersion: decision?.data.catalogVersion,
    });
  });

  it("a delivery's audit event, and the item a failed delivery opens, record the versions of its row", async () => {
    const failing = memoryTransport({ failWhen: (message) => /t-2@/i.test(message.to), retryable: false });
    const { outbox } = outboxOver(ctx.store, { transport: failing });
    const versions = { templateVersion: completionCheck.version, catalogVersion: propertyCatalog.version };
    const sent = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r1" });
    expect(sent.delivery?.status).toBe("delivered");
    const [delivered] = await auditOf(outbox, { type: "delivery" });
    expect(recordedVersions(delivered?.data)).toEqual(versions);

    const failed = await outbox.handle({ ticketId: "T-2", output: proposal("T-2"), runId: "r1" });
    expect(failed.delivery?.status).toBe("failed");
    const item = await outbox.queue.get(failed.queueItemId as string);
    expect(item).toMatchObject({ reason: "delivery_failed", decidedUnder: versions });
  });

  it("a provider's report of a delivered message records the versions of its row, and the report counts it under them", async () => {
    const { outbox } = outboxOver(ctx.store);
    const sent = await outbox.handle({ ticketId: "T-1", output: proposal("T-1"), runId: "r1" });
    const [outcome] = await outbox.recordDeliveryEvents([
      deliveryEvent({
        provider: "ses",
        eventId: "e-1",
        messageId: sent.delivery?.receiptId as string,
        status: "delivered",
      }),
    ]);
    const versions = { templateVersion: completionCheck.version, catalogVersion: propertyCatalog.version };
    expect(outcome).toMatchObject(merged({ outcome: "recorded", outboundId: sent.outboundId }, versions));
    const status = (await auditOf(outbox, { type: "delivery_status" }))[0];
    const decision = (await auditOf(outbox, { type: "decision" }))[0];
    expect(status?.data).toMatchObject(versions);
    expect(recordedVersions(status?.data)).toEqual(recordedVersions(decision?.data));

    const report = await reportFromAudit(outbox.audit.query({}));
    const delivered = { delivered: 1, bounced: { hard: 0, soft: 0, unclassified: 0 }, complained: 0 };
    expect(report.byCatalogVersion).toEqual([
      expect.objectContaining({
        key: propertyCatalog.version,
        decided: 1,
        deliveryOutcomes: expect.objectContaining(delivered),
      }),
    ]);
    expect(report.byTemplateVersion).toEqual([
      expect.objectContaining({
        key: `completion_check@${completionCheck.version}`,
        deliveryOutcomes: expect.objectContaining(delivered),
      }),
    ]);
  });

  it("an approval under the same deploy says the template did not change", async () => {
    const { outbox } = outboxOver(ctx.store);
    const waiting = await outbox.handle({
      ticketId: "T-1",
      output: proposal("T-1", "payment_release"),
      runId: "r1",
    });
    await outbox.queue.approve(waiting.queueItemId as string, { by: "ana@example.com" });
    const approval = (await auditOf(outbox, { type: "queue" })).find(
      (event) => event.data.action === "approve",
    );
    expect(approval?.data).toMatchObject({ templateChanged: false });
  });
}
