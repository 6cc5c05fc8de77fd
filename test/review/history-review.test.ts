import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../src/core/decision/catalog.js";
import { reviewHistory } from "../../src/review/review-history.js";
import { reviewTickets } from "../../src/review/review-tickets.js";
import { cli } from "../cli/run.js";
import { historyLines, ReviewWorkspace, ticketRecords } from "./review-workspace.js";

const space = new ReviewWorkspace();
let base: { file: string; catalog: Catalog };
let history: string;

beforeAll(async () => {
  base = await space.catalog();
  history = space.lines("history.jsonl", [
    ...historyLines(base.catalog, 12),
    "not json",
    { ticketId: "T-x" },
  ]);
}, 30_000);
afterAll(() => space.remove());

describe("reviewHistory", () => {
  it("pairs nothing as changed for the same catalog, with equal rates and the bad lines counted", async () => {
    const review = await reviewHistory(base.catalog, base.catalog, history);
    expect(review.messages.pairs).toBe(12);
    expect(review.messages.unchanged).toBe(12);
    expect(review.messages.changes).toEqual([]);
    expect(review.malformed).toBe(2);
    expect(review.rates.points).toBe(0);
    // Every fourth line asks for a refund, which waits for approval: an escalation.
    expect(review.rates.base).toMatchObject({ decided: 12, escalated: 3 });
    expect(review.rates.base.low).toBeGreaterThan(0);
    expect(review.rates.base.high).toBeLessThan(1);
  });

  it("shows a changed body as a word diff of the text, each changed line once and the subject left alone", async () => {
    const head = await space.catalog({
      noteBody: "Order {{order.number}} comes to {{order.total}}, paid {{order.amount}}.",
    });
    const review = await reviewHistory(base.catalog, head.catalog, history);
    expect(review.messages.counts).toEqual({
      changed: 9,
      "recipient-changed": 0,
      "newly-sent": 0,
      "newly-escalated": 0,
    });
    expect(review.messages.unchanged).toBe(3);
    const first = review.messages.changes[0];
    expect(first).toMatchObject({ kind: "changed", ticketId: "T-1", line: 1, template: "order_note" });
    expect(Object.keys(first?.diff ?? {})).toEqual(["text"]);
    expect(first?.diff.text).toEqual([
      { op: "same", text: "Order 4471-1 " },
      { op: "removed", text: "totals " },
      { op: "added", text: "comes to " },
      { op: "same", text: "40.00, paid €40.00." },
    ]);
    expect(review.items).toEqual([]);
  });

  it("lists a proposal a new where refuses as newly escalated, with its reason, and raises the rate", async () => {
    const head = await space.catalog({ noteWhere: "(order) => order.amount < 100" });
    const review = await reviewHistory(base.catalog, head.catalog, history);
    expect(review.messages.counts["newly-escalated"]).toBe(3);
    expect(review.messages.changes[0]).toMatchObject({
      kind: "newly-escalated",
      ticketId: "T-2",
      base: { kind: "send" },
      head: { kind: "escalate", reason: "slot_rejected" },
    });
    expect(review.rates.head.escalated - review.rates.base.escalated).toBe(3);
    expect(review.rates.points).toBeCloseTo(25, 6);
  });

  it("flags messages that now go to another recipient as a review item, without the address", async () => {
    const head = await space.catalog({ recipientField: "backupEmail" });
    const review = await reviewHistory(base.catalog, head.catalog, history);
    expect(review.messages.counts["recipient-changed"]).toBe(9);
    expect(review.messages.changes[0]?.diff.to).toEqual([
      { op: "removed", text: "shop@seller.example" },
      { op: "added", text: "backup@seller.example" },
    ]);
    expect(review.items).toEqual([
      {
        kind: "recipient-change",
        template: "order_note",
        detail: "9 messages of the history now go to another recipient (first: ticket T-1, line 1)",
      },
    ]);
    expect(JSON.stringify(review.items)).not.toContain("@");
  });

  it("shows a draft that no longer waits for approval as changed, though its text is the same", async () => {
    const head = await space.catalog({ refundSpread: `{ effect: "reversible" }` });
    const review = await reviewHistory(base.catalog, head.catalog, history);
    expect(review.messages.counts.changed).toBe(3);
    expect(review.messages.changes[0]).toMatchObject({
      base: { kind: "approval" },
      head: { kind: "send" },
      diff: {},
    });
    expect(review.rates.head.escalated).toBe(0);
    // Only the heading says what changed: the text is not shown as if it were newly sent.
    const run = await cli(["diff", "--base", base.file, "--head", head.file, "--history", history]);
    expect(run.stdout).toContain(
      "changed  ticket T-4, line 4 · refund_order: base waits for approval, head sends\n",
    );
    expect(run.stdout).not.toMatch(/\{\+|\[-/);
  });

  it("keeps the first changes only, counting the rest", async () => {
    const head = await space.catalog({
      noteBody: "Order {{order.number}}: {{order.total}}, paid {{order.amount}}.",
    });
    const review = await reviewHistory(base.catalog, head.catalog, history, { maxListed: 2 });
    expect(review.messages.changes).toHaveLength(2);
    expect(review.messages.more).toBe(7);
  });
});

describe("reviewTickets", () => {
  it("enumerates every proposal of both catalogs: a renamed template's messages are newly sent and newly escalated", async () => {
    const head = await space.catalog({ refundId: "refund_full" });
    const tickets = space.lines("tickets.jsonl", [{ ticketId: "T-1", records: ticketRecords("T-1") }]);
    const review = await reviewTickets(base.catalog, head.catalog, tickets);
    const kinds = review.messages.changes.map((change) => `${change.kind} ${change.template}`);
    // Each order named, with the seller named or left out (its only candidate): four proposals that send.
    expect(kinds.filter((kind) => kind === "newly-sent refund_full")).toHaveLength(4);
    expect(kinds.filter((kind) => kind === "newly-escalated refund_order")).toHaveLength(4);
    expect(kinds.every((kind) => kind.endsWith("refund_full") || kind.endsWith("refund_order"))).toBe(true);
    expect(review.messages.unchanged).toBeGreaterThan(0);
  });

  it("reports nothing for the same catalog on both sides", async () => {
    const tickets = space.lines("same.jsonl", [{ ticketId: "T-1", records: ticketRecords("T-1") }]);
    const review = await reviewTickets(base.catalog, base.catalog, tickets);
    expect(review.messages.changes).toEqual([]);
    expect(review.messages.pairs).toBeGreaterThan(4);
  });
});

describe("formletter diff over a history", () => {
  it("fails on rate-up:N when the rate rose more than N points, and not when it rose less", async () => {
    const head = space.module({ noteWhere: "(order) => order.amount < 100" });
    const args = ["diff", "--base", base.file, "--head", head, "--history", history];
    const run = await cli([...args, "--fail-on", "rate-up:2"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("rate-up (+25.0 points, more than 2)");
    expect(run.stdout).toMatch(/escalation rate: base 25\.0% \(95% CI .*, 3 of 12\) → head 50\.0%/);
    expect((await cli([...args, "--fail-on", "rate-up:50"])).code).toBe(0);
  });

  it("refuses rate-up without a history, and a rate-up without points", async () => {
    const same = ["diff", "--base", base.file, "--head", base.file];
    const alone = await cli([...same, "--fail-on", "rate-up:2"]);
    expect(alone.stderr).toContain("rate-up needs --history");
    const bad = await cli([...same, "--history", history, "--fail-on", "rate-up"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("needs percentage points from 0 to 100");
    const both = await cli([...same, "--history", history, "--tickets", history]);
    expect(both.stderr).toContain("pass --history or --tickets, not both");
  });

  it("writes record values into the markdown comment only escaped", async () => {
    const hostile = ticketRecords("T-h", "</pre><img src=x onerror=alert(1)>**x**");
    const head = space.module({
      noteBody: "Order {{order.number}} comes to {{order.total}}, paid {{order.amount}}.",
    });
    const file = space.lines("hostile.jsonl", [
      {
        ticketId: "T-h",
        records: hostile,
        output: {
          template: "order_note",
          slots: { order: base.catalog.handles(hostile).get("orders", "T-h-a") },
        },
      },
    ]);
    const run = await cli(["diff", "--base", base.file, "--head", head, "--history", file, "--md"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Changed messages (1)");
    expect(run.stdout).not.toContain("<img");
    expect(run.stdout).not.toMatch(/<\/pre><img/);
    expect(run.stdout.match(/<pre>/g)).toHaveLength(1);
    expect(run.stdout.match(/<\/pre>/g)).toHaveLength(1);
    const json = JSON.parse(
      (await cli(["diff", "--base", base.file, "--head", head, "--history", file, "--json"])).stdout,
    );
    expect(Object.keys(json)).toEqual([
      "sources",
      "base",
      "head",
      "added",
      "removed",
      "renamed",
      "changed",
      "unchanged",
      "items",
      "capacity",
      "translations",
      "messages",
      "rates",
    ]);
  });
});
