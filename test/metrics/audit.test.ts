import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createCatalog,
  createOutbox,
  defineRecords,
  defineTemplate,
  memoryStore,
  memoryTransport,
} from "../../src/index.js";
import { reportFromAudit } from "../../src/metrics/index.js";

// Contractors confirming repair visits; one confirmation per ticket, and quotes need a person's approval.
const records = defineRecords({
  jobs: z.object({ id: z.string(), ref: z.string(), contractorId: z.string() }),
  contractors: z.object({ id: z.string(), email: z.email() }),
});
const { slot } = records;
const base = {
  audience: "contractor",
  channel: "email" as const,
  to: slot.ref("contractors", { show: "email", match: { id: "job.contractorId" } }),
  slots: { job: slot.ref("jobs", { show: "ref" }) },
};
const catalog = createCatalog(records, [
  defineTemplate(records, {
    effect: "informational",
    ...base,
    id: "confirm_visit",
    description: "Ask to confirm the visit",
    subject: "Job {{job}}",
    body: "Please confirm the visit for job {{job}}.",
    limits: { perTicket: 1, perDay: 100 },
  }),
  defineTemplate(records, {
    effect: "irreversible",
    ...base,
    id: "accept_quote",
    description: "Accept the quote",
    subject: "Quote for {{job}}",
    body: "We accept your quote for job {{job}}.",
    limits: { perTicket: 1, perDay: 100 },
    approval: "human",
  }),
]);
const ticket = (id: string) => ({
  ticketId: id,
  jobs: [
    { id: `a-${id}`, ref: `A-${id}`, contractorId: id === "T4" ? "bounce" : "c1" },
    { id: `b-${id}`, ref: `B-${id}`, contractorId: "c1" },
  ],
  contractors: [
    { id: "c1", email: "fix@plumbers.example.com" },
    { id: "bounce", email: "gone@bounce.example.com" },
  ],
});
const job = (id: string, which: "a" | "b") => catalog.handles(ticket(id)).get("jobs", `${which}-${id}`);

describe("the escalation report of a real outbox's audit log", () => {
  it("counts each decision once, duplicates and failed deliveries apart, approvals and limits as escalations", async () => {
    const store = memoryStore();
    const outbox = createOutbox({
      catalog,
      load: ticket,
      store,
      transports: {
        email: memoryTransport({
          failWhen: (message) => message.to.endsWith("@bounce.example.com"),
          retryable: false,
        }),
      },
    });
    const send = (ticketId: string, template: string, which: "a" | "b", runId: string) =>
      outbox.handle({
        ticketId,
        output: { template, slots: { job: job(ticketId, which) } },
        runId,
        tags: { trade: "plumbing" },
      });
    expect((await send("T1", "confirm_visit", "a", "r1")).decision.outcome).toBe("send");
    expect((await send("T1", "confirm_visit", "a", "r2")).duplicate).toBe(true);
    expect((await send("T1", "confirm_visit", "b", "r3")).decision).toMatchObject({
      reason: "limit_exceeded",
    });
    const approval = await send("T2", "accept_quote", "a", "r4");
    expect(approval.decision).toMatchObject({ reason: "approval_required" });
    await outbox.handle({ ticketId: "T3", output: { escalate: "needs_human" }, runId: "r5" });
    expect((await send("T4", "confirm_visit", "a", "r6")).delivery?.status).toBe("failed");
    await outbox.queue.claim(approval.queueItemId as string, { by: "ana" });

    const report = await reportFromAudit(outbox.audit.query());
    await outbox.close();
    // Decisions: T1 send, T1 limit_exceeded, T2 approval_required, T3 model_escalated, T4 send.
    expect(report.overall).toMatchObject({ decided: 5, sent: 2, escalated: 3 });
    expect(report.duplicates).toBe(1);
    expect(report.deliveryFailures).toBe(1);
    expect(Object.fromEntries(report.byReason.map((row) => [row.reason, row.count]))).toEqual({
      approval_required: 1,
      limit_exceeded: 1,
      model_escalated: 1,
    });
    expect(report.byTemplate.map((row) => [row.key, row.decided, row.escalated])).toEqual([
      ["confirm_visit", 3, 1],
      ["(none)", 1, 1],
      ["accept_quote", 1, 1],
    ]);
    expect(report.byTag.find((t) => t.tag === "trade")?.rows.map((row) => [row.key, row.decided])).toEqual([
      ["plumbing", 4],
      ["(none)", 1],
    ]);
  });
});
