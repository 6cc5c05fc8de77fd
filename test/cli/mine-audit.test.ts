import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replyLine } from "../../src/cli/mine-audit.js";
import type { AuditEvent } from "../../src/store/store.js";
import { Browser, populate, signedIn, useWorkspace } from "../workspace/rig.js";
import { cli } from "./run.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
let directory: string;
let recordsModule: string;

beforeAll(() => {
  mkdirSync(join(root, "scratch"), { recursive: true });
  directory = mkdtempSync(join(root, "scratch", "mine-audit-"));
  // The workspace rig's collections, as a team's records module defines them.
  recordsModule = join(directory, "records.ts");
  writeFileSync(
    recordsModule,
    `import { defineRecords } from "formletter";
import { z } from "zod";
export const records = defineRecords({
  customers: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  orders: z.object({ id: z.string(), customerId: z.string(), number: z.string(), note: z.string() }),
});
`,
  );
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

const replyText = (ticket: string) =>
  `Hello,\n\nthe parcel of order N-${ticket} came back to our warehouse. We send it again on Monday at no cost.\n\nThe support team`;

describe("formletter mine --audit", () => {
  const setup = useWorkspace({ humanReplies: true });

  it("mines the replies people wrote in the workspace into the cluster of a template, with the ticket's values as slots", async () => {
    const { rig } = setup;
    const ana = await signedIn(rig);
    const tickets = ["T-1", "T-2", "T-3", "T-4", "T-5", "T-6"];
    for (const ticket of tickets) {
      const id = await populate(rig, ticket);
      const page = await ana.request(`/queue/items/${id}/reply`);
      const answer = await ana.request(`/queue/items/${id}/reply`, {
        form: { csrf: Browser.csrfOf(page.text), subject: "Your parcel", text: replyText(ticket) },
      });
      expect(answer.headers.get("location")).toContain("done=replied");
    }
    expect(rig.transport.sent).toHaveLength(tickets.length);
    const mined = await cli(["mine", "--records", recordsModule, "--audit", rig.file, "--json"]);
    expect(mined.stderr).toBe("");
    expect(mined.code).toBe(0);
    const report = JSON.parse(mined.stdout) as {
      messages: number;
      malformed: number;
      newRecipients: { count: number };
      candidates: { size: number; skeleton: string; slots: string[]; recipientsResolved: number }[];
    };
    // Only the replies: the escalations and drafts in the same log are not messages a person wrote.
    expect(report.messages).toBe(tickets.length);
    expect(report.malformed).toBe(0);
    expect(report.newRecipients.count).toBe(0);
    const [cluster] = report.candidates;
    expect(cluster?.size).toBe(tickets.length);
    expect(cluster?.recipientsResolved).toBe(tickets.length);
    expect(cluster?.slots.join(" ")).toMatch(/orders?\.number/);
    expect(cluster?.skeleton).toContain("came back to our warehouse");
    expect(cluster?.skeleton).not.toContain("N-T-");
  });

  it("refuses a history file and --audit together, neither, and a database that does not exist", async () => {
    const neither = await cli(["mine", "--records", recordsModule]);
    expect(neither.code).not.toBe(0);
    expect(neither.stderr).toContain("give either a history file or --audit DB");
    const both = await cli(["mine", "--records", recordsModule, "--audit", "x.db", "history.jsonl"]);
    expect(both.stderr).toContain("not both");
    const missing = await cli(["mine", "--records", recordsModule, "--audit", join(directory, "none.db")]);
    expect(missing.stderr).toContain("no outbox database at");
  });
});

describe("a person's reply as a history line", () => {
  const event = (data: Record<string, unknown>, type: AuditEvent["type"] = "queue"): AuditEvent => ({
    id: "7",
    at: 1,
    type,
    ticketId: "T-1",
    runId: "r",
    template: undefined,
    outcome: undefined,
    reason: undefined,
    key: undefined,
    actor: "ana",
    data,
  });

  it.each([
    ["another queue action", event({ action: "resolve", author: "person" })],
    ["a reply not written by a person", event({ action: "person_reply", author: "outbox" })],
    ["an access event", event({ action: "person_reply", author: "person" }, "access")],
  ])("reads nothing from %s", (_name, given) => {
    expect(replyLine(given)).toBeUndefined();
  });

  it("names a reply without its text as a problem, and keeps markup and line breaks as data", () => {
    expect(replyLine(event({ action: "person_reply", author: "person", message: {} }))).toEqual({
      problem: "audit event 7: a person's reply without its ticket or text",
    });
    const line = replyLine(
      event({
        action: "person_reply",
        author: "person",
        message: { channel: "email", to: "a@b.example", subject: "S", text: '<script>"\n' },
      }),
    );
    expect(JSON.parse(line as string)).toEqual({
      ticketId: "T-1",
      records: {},
      message: { channel: "email", to: "a@b.example", subject: "S", text: '<script>"\n' },
      at: 1,
    });
  });
});
